package dev.watchkeeper.autoconfigure.health;

import dev.watchkeeper.internal.leader.LeaderElectionSnapshot;
import dev.watchkeeper.internal.leader.LeaderElector;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.webhook.WebhookService;
import dev.watchkeeper.watch.WatcherPhase;
import dev.watchkeeper.watch.WatcherSnapshot;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * Health of every watcher: {@code UP} when each has synced and is watching; {@code DOWN} when any has
 * {@code STOPPED} (it gave up, or the application is closing); otherwise {@code OUT_OF_SERVICE} — still listing or
 * backing off, so the caches may be incomplete or stale. A watcher of a type owned when served counts only once the
 * server serves that type; until then its details say {@code awaitsServing}. Details show each watcher's phase, sync and, unless it is
 * watching again, its last error; the {@code watchkeeper} endpoint keeps the last error with its time. With leader
 * election, details also show the role and the holder; a follower is as healthy as the leader. With admission
 * webhooks, details show their certificate's expiry and rotations, and health is {@code DOWN} with a reason while
 * the webhook server is not serving or its certificate has expired: the API server then refuses every write a
 * webhook with {@code failurePolicy: Fail} matches.
 */
public class WatchkeeperHealthIndicator implements HealthIndicator {

    private final WatchkeeperRegistry registry;
    private final LeaderElector elector;
    private final Supplier<WebhookService> webhooks;

    public WatchkeeperHealthIndicator(WatchkeeperRegistry registry) {
        this(registry, null);
    }

    /** {@code elector}: {@code null} when leader election is off. */
    public WatchkeeperHealthIndicator(WatchkeeperRegistry registry, LeaderElector elector) {
        this(registry, elector, () -> null);
    }

    /** {@code webhooks}: the running webhooks, or {@code null} while none are served. */
    public WatchkeeperHealthIndicator(WatchkeeperRegistry registry, LeaderElector elector,
            Supplier<WebhookService> webhooks) {
        this.registry = registry;
        this.elector = elector;
        this.webhooks = webhooks;
    }

    @Override
    public Health health() {
        Status status = Status.UP;
        Map<String, Object> watchers = new LinkedHashMap<>();
        for (var watcher : registry.watchers()) {
            WatcherSnapshot s = watcher.snapshot();
            Map<String, Object> details = details(s);
            watchers.put(s.name(), details);
            if (registry.awaitsServing(watcher)) {
                details.put("awaitsServing", true); // a type owned when served, not served yet: holds nothing up
                continue;
            }
            if (s.phase() == WatcherPhase.STOPPED) {
                status = Status.DOWN;
            } else if (status == Status.UP && !(s.synced() && s.phase() == WatcherPhase.WATCHING)) {
                status = Status.OUT_OF_SERVICE;
            }
        }
        WebhookService webhookService = webhooks.get();
        Map<String, Object> webhookDetails = webhookService == null ? null : details(webhookService);
        if (webhookDetails != null && webhookDetails.containsKey("reason")) {
            status = Status.DOWN;
        }
        Health.Builder health = Health.status(status).withDetail("watchers", watchers);
        if (elector != null) {
            health.withDetail("leaderElection", details(elector.snapshot()));
        }
        if (webhookDetails != null) {
            health.withDetail("webhooks", webhookDetails);
        }
        return health.build();
    }

    /** With a {@code reason} when the API server cannot call the webhooks. */
    private static Map<String, Object> details(WebhookService s) {
        Map<String, Object> details = new LinkedHashMap<>();
        if (!s.serving()) {
            details.put("reason", "the webhook server is not serving");
        } else if (s.certificateExpired()) {
            details.put("reason", "the serving certificate from " + s.certificateSource() + " expired at "
                    + s.certificateNotAfter() + "; the API server refuses it");
        }
        details.put("certificateNotAfter", String.valueOf(s.certificateNotAfter()));
        WebhookService.Rotations rotations = s.rotations();
        details.put("rotations", rotations.count());
        if (rotations.last() != null) {
            details.put("lastRotationAt", rotations.last().toString());
        }
        return details;
    }

    private static Map<String, Object> details(LeaderElectionSnapshot s) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("role", s.isLeader() ? "leader" : "follower");
        details.put("identity", s.identity());
        details.put("lease", s.leaseNamespace() + "/" + s.leaseName());
        if (s.holder() != null) {
            details.put("holder", s.holder());
        }
        return details;
    }

    private static Map<String, Object> details(WatcherSnapshot s) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("phase", s.phase().name());
        details.put("synced", s.synced());
        details.put("objects", s.objects());
        if (s.nextAttemptAt() != null) {
            details.put("nextAttemptAt", s.nextAttemptAt().toString());
        }
        if (s.lastError() != null && s.phase() != WatcherPhase.WATCHING) {
            details.put("lastError", s.lastError().message());
        }
        return details;
    }
}
