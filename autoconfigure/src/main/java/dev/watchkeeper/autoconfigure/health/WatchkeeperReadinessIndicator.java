package dev.watchkeeper.autoconfigure.health;

import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import java.util.List;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Readiness gate: {@code OUT_OF_SERVICE} until every watcher has completed its first sync, {@code UP} from then on
 * (a later outage shows in the {@code watchkeeper} indicator, not here, so a brief API hiccup does not take every
 * replica out of a Service at once). A watcher of a type owned when served does not hold it up while the server does
 * not serve that type. A member of the {@code readiness} health group beside Boot's
 * {@code readinessState}, so Boot's own {@code ACCEPTING_TRAFFIC} after start-up cannot mark the application ready
 * before the caches are.
 */
public class WatchkeeperReadinessIndicator implements HealthIndicator {

    private final WatchkeeperRegistry registry;

    public WatchkeeperReadinessIndicator(WatchkeeperRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Health health() {
        List<String> waiting = registry.watchers().stream()
                .filter(watcher -> !watcher.store().ready().isDone() && !registry.awaitsServing(watcher))
                .map(watcher -> watcher.name()).sorted().toList();
        return waiting.isEmpty()
                ? Health.up().build()
                : Health.outOfService().withDetail("waitingForFirstSync", waiting).build();
    }
}
