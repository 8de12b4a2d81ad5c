package dev.watchkeeper.autoconfigure.health;

import dev.watchkeeper.registry.WatchkeeperRegistry;
import dev.watchkeeper.watch.WatcherPhase;
import dev.watchkeeper.watch.WatcherSnapshot;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * Health of every watcher: {@code UP} when each has synced and is watching; {@code DOWN} when any has
 * {@code STOPPED} (it gave up, or the application is closing); otherwise {@code OUT_OF_SERVICE} — still listing or
 * backing off, so the caches may be incomplete or stale. Details show each watcher's phase, sync and, unless it is
 * watching again, its last error; the {@code watchkeeper} endpoint keeps the last error with its time.
 */
public class WatchkeeperHealthIndicator implements HealthIndicator {

    private final WatchkeeperRegistry registry;

    public WatchkeeperHealthIndicator(WatchkeeperRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Health health() {
        Status status = Status.UP;
        Map<String, Object> watchers = new LinkedHashMap<>();
        for (var watcher : registry.watchers()) {
            WatcherSnapshot s = watcher.snapshot();
            watchers.put(s.name(), details(s));
            if (s.phase() == WatcherPhase.STOPPED) {
                status = Status.DOWN;
            } else if (status == Status.UP && !(s.synced() && s.phase() == WatcherPhase.WATCHING)) {
                status = Status.OUT_OF_SERVICE;
            }
        }
        return Health.status(status).withDetail("watchers", watchers).build();
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
