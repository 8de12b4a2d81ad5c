package dev.watchkeeper.bench.startup;

import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.watch.Watcher;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;

/**
 * Notes the moment every watcher's store is ready (its first complete list). It starts one lifecycle phase before
 * the {@link WatchkeeperRegistry}, when every {@code @Reconciler} has registered its watcher and none has started,
 * and listens on each store's {@code ready()} future: no polling, and no sync can slip past it. Without a registry
 * (the baseline without the starter) it does nothing.
 */
final class SyncClock implements ApplicationContextInitializer<ConfigurableApplicationContext>, SmartLifecycle {

    private final CompletableFuture<Long> syncedAt = new CompletableFuture<>();
    private ConfigurableApplicationContext context;
    private volatile List<Watcher<?>> watchers = List.of();
    private volatile boolean running;

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        this.context = context;
        context.getBeanFactory().registerSingleton("benchSyncClock", this);
    }

    @Override
    public void start() {
        running = true;
        WatchkeeperRegistry registry = context.getBeanProvider(WatchkeeperRegistry.class).getIfAvailable();
        if (registry == null) {
            return;
        }
        watchers = List.copyOf(registry.watchers());
        CompletableFuture.allOf(watchers.stream().map(watcher -> watcher.store().ready())
                        .toArray(CompletableFuture[]::new))
                .thenRun(() -> syncedAt.complete(System.nanoTime()));
    }

    /** {@code System.nanoTime()} when the last store became ready. */
    long awaitSynced(Duration timeout) throws Exception {
        return syncedAt.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The watchers the registry had when it started. */
    List<Watcher<?>> watchers() {
        return watchers;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return WatchkeeperRegistry.PHASE - 1;
    }
}
