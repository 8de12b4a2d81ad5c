package dev.watchkeeper.autoconfigure;

import java.util.concurrent.ThreadFactory;
import org.springframework.boot.thread.Threading;
import org.springframework.core.env.Environment;
import org.springframework.core.task.VirtualThreadTaskExecutor;

/**
 * Where Watchkeeper's threads come from under Boot's {@code spring.threads.virtual.enabled}: with it (on Java 21+)
 * every watcher, listener, reconcile worker, the leader elector and the shard coordinator run on virtual threads
 * named {@code watchkeeper-<n>}; without it, on the runtime's own platform daemon threads ({@code null}).
 */
final class WatchkeeperThreads {

    private WatchkeeperThreads() {
    }

    static ThreadFactory of(Environment environment) {
        return Threading.VIRTUAL.isActive(environment)
                ? new VirtualThreadTaskExecutor("watchkeeper-").getVirtualThreadFactory()
                : null;
    }
}
