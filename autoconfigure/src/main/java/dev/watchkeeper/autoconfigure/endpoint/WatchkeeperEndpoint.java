package dev.watchkeeper.autoconfigure.endpoint;

import dev.watchkeeper.internal.leader.LeaderElector;
import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.shard.ShardCoordinator;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.webhook.WebhookService;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.lang.Nullable;

/**
 * {@code /actuator/watchkeeper}: every watcher's and reconciler's published state, leader election, sharding, the
 * admission webhooks and conversions, one watcher or reconciler by name, and "retry now".
 * Holds no logic: it maps the registry's snapshots to descriptor records. Shows no object contents or credentials.
 */
@Endpoint(id = "watchkeeper")
public class WatchkeeperEndpoint {

    private final WatchkeeperRegistry registry;
    private final LeaderElector elector;
    private final ShardCoordinator coordinator;
    private final Supplier<WebhookService> webhooks;

    public WatchkeeperEndpoint(WatchkeeperRegistry registry) {
        this(registry, null);
    }

    /** {@code elector}: {@code null} when leader election is off. */
    public WatchkeeperEndpoint(WatchkeeperRegistry registry, @Nullable LeaderElector elector) {
        this(registry, elector, null);
    }

    /** {@code elector}, {@code coordinator}: {@code null} when leader election or sharding is off. */
    public WatchkeeperEndpoint(WatchkeeperRegistry registry, @Nullable LeaderElector elector,
            @Nullable ShardCoordinator coordinator) {
        this(registry, elector, coordinator, () -> null);
    }

    /** {@code webhooks}: the running webhooks, or {@code null} while none are served. */
    public WatchkeeperEndpoint(WatchkeeperRegistry registry, @Nullable LeaderElector elector,
            @Nullable ShardCoordinator coordinator, Supplier<WebhookService> webhooks) {
        this.webhooks = webhooks;
        this.registry = registry;
        this.elector = elector;
        this.coordinator = coordinator;
    }

    /** Every watcher and reconciler, by name, leader election and sharding. */
    @ReadOperation
    public WatchkeeperDescriptor watchkeeper() {
        List<WatcherDescriptor> watchers = registry.watchers().stream()
                .sorted(Comparator.comparing(Watcher::name))
                .map(WatcherDescriptor::of).toList();
        List<ReconcilerDescriptor> reconcilers = registry.reconcilers().stream()
                .sorted(Comparator.comparing(Reconciler::name))
                .map(reconciler -> ReconcilerDescriptor.of(reconciler.snapshot())).toList();
        return new WatchkeeperDescriptor(watchers, reconcilers, elector == null ? LeaderElectionDescriptor.DISABLED
                : LeaderElectionDescriptor.of(elector.snapshot()),
                coordinator == null ? null : ShardingDescriptor.of(coordinator.snapshot(),
                        registry.watchers().stream().map(Watcher::snapshot).toList()),
                webhooks.get() == null ? null : WebhooksDescriptor.of(webhooks.get()));
    }

    /** One watcher or reconciler; 404 when there is none of that name. */
    @ReadOperation
    @Nullable
    public Object watchkeeperItem(@Selector String name) {
        Optional<Watcher<?>> watcher = registry.watcher(name);
        if (watcher.isPresent()) {
            return WatcherDescriptor.of(watcher.get());
        }
        return registry.reconciler(name).map(c -> ReconcilerDescriptor.of(c.snapshot())).orElse(null);
    }

    /**
     * Retry now: a watcher ends its backoff wait and starts its backoff over (for after an RBAC or CRD fix); a
     * reconciler retries its failing keys at once. 404 when there is none of that name.
     */
    @WriteOperation
    public WebEndpointResponse<RetryDescriptor> retryNow(@Selector String name) {
        Optional<Watcher<?>> watcher = registry.watcher(name);
        if (watcher.isPresent()) {
            watcher.get().retryNow();
            return new WebEndpointResponse<>(new RetryDescriptor(name, "watcher", "backoff reset; retrying now"));
        }
        Optional<Reconciler<?>> reconciler = registry.reconciler(name);
        if (reconciler.isPresent()) {
            int failing = reconciler.get().snapshot().failingKeysTotal();
            reconciler.get().retryFailingNow();
            return new WebEndpointResponse<>(
                    new RetryDescriptor(name, "reconciler", "retrying " + failing + " failing keys now"));
        }
        return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
    }

    /**
     * The endpoint's whole answer.
     *
     * @param watchers    every watcher
     * @param reconcilers    every reconciler
     * @param leaderElection whether and how this replica takes part in leader election
     * @param sharding       this replica's part in sharding; {@code null} when sharding is off
     * @param webhooks       the admission webhooks and their certificate; {@code null} when none are served
     */
    public record WatchkeeperDescriptor(List<WatcherDescriptor> watchers, List<ReconcilerDescriptor> reconcilers,
            LeaderElectionDescriptor leaderElection, @Nullable ShardingDescriptor sharding,
            @Nullable WebhooksDescriptor webhooks) {
    }

    /**
     * The answer to retry-now.
     *
     * @param name   the watcher or reconciler
     * @param type   {@code watcher} or {@code reconciler}
     * @param action what was done
     */
    public record RetryDescriptor(String name, String type, String action) {
    }
}
