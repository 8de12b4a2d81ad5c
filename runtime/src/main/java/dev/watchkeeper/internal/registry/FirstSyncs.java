package dev.watchkeeper.internal.registry;

import dev.watchkeeper.internal.text.Plural;
import dev.watchkeeper.internal.watch.Watcher;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long the JVM had run when each watcher's first list was done, and the start-up line that says when every
 * cache was synced.
 */
final class FirstSyncs {

    private static final Logger log = LoggerFactory.getLogger(WatchkeeperRegistry.class);

    private final Map<Watcher<?>, Duration> uptimes = new ConcurrentHashMap<>();

    /** Records the moment {@code watcher}'s store is first ready. */
    void watch(Watcher<?> watcher) {
        watcher.store().ready().thenRun(() -> uptimes.put(watcher, processUptime()));
    }

    /** Once per start-up, when the caches of every one of {@code watchers} hold their first list. */
    void logSynced(List<Watcher<?>> watchers) {
        Duration now = processUptime(); // for a watcher whose own record of the moment is not in yet
        Duration last = watchers.stream().map(w -> uptimes.getOrDefault(w, now)).max(Duration::compareTo)
                .orElse(now);
        log.info("watchkeeper caches synced: {}, {} (process running for {} s)",
                Plural.count(watchers.size(), "watcher"),
                Plural.count(watchers.stream().mapToInt(w -> w.store().size()).sum(), "object"),
                String.format(Locale.ROOT, "%.3f", last.toMillis() / 1000.0));
    }

    private static Duration processUptime() {
        return Duration.ofMillis(ManagementFactory.getRuntimeMXBean().getUptime());
    }
}
