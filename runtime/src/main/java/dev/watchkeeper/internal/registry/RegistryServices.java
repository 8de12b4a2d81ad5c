package dev.watchkeeper.internal.registry;

import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.concurrent.DaemonThreads;
import dev.watchkeeper.internal.events.EventRecorder;
import dev.watchkeeper.internal.events.Reporter;
import dev.watchkeeper.internal.reconcile.ReconcileObserver;
import io.kubernetes.client.openapi.ApiClient;
import java.util.concurrent.ThreadFactory;

/**
 * What every watcher and reconciler of a {@link WatchkeeperRegistry} shares.
 *
 * <pre>{@code
 * RegistryServices services = new RegistryServices(apiClient, TimeSource.system(),
 *         WatchkeeperSettings.defaults(), null, null, null);
 * }</pre>
 *
 * @param apiClient      the client watchers and reconciles talk through
 * @param time           clock and waiting; {@code null} = the system's
 * @param settings       per-name settings; {@code null} = defaults
 * @param watcherThreads where watcher threads come from; {@code null} = platform threads
 * @param workerThreads  where reconcile worker threads come from (virtual threads, say); {@code null} = daemon
 *                       platform threads
 * @param observer       wraps each reconcile; {@code null} = pass-through
 * @param events         where reconciles' Events go; {@code null} = a recorder through {@code apiClient} reporting as
 *                       {@link Reporter#defaults()} (none without an {@code apiClient}); the registry closes it when
 *                       it stops
 */
public record RegistryServices(ApiClient apiClient, TimeSource time, WatchkeeperSettings settings,
        ThreadFactory watcherThreads, ThreadFactory workerThreads, ReconcileObserver observer, EventRecorder events) {

    public RegistryServices {
        time = time != null ? time : TimeSource.system();
        settings = settings != null ? settings : WatchkeeperSettings.defaults();
        workerThreads = workerThreads != null ? workerThreads : DaemonThreads.factory();
        observer = observer != null ? observer : ReconcileObserver.passThrough();
        events = events != null || apiClient == null ? events
                : EventRecorder.create(apiClient, Reporter.defaults(), time);
    }

    /** Services whose Events go through a recorder of their own ({@code events} = {@code null}). */
    public RegistryServices(ApiClient apiClient, TimeSource time, WatchkeeperSettings settings,
            ThreadFactory watcherThreads, ThreadFactory workerThreads, ReconcileObserver observer) {
        this(apiClient, time, settings, watcherThreads, workerThreads, observer, null);
    }

    /** Defaults around {@code apiClient}. */
    public static RegistryServices of(ApiClient apiClient) {
        return new RegistryServices(apiClient, null, null, null, null, null, null);
    }
}
