package dev.watchkeeper.internal.concurrent;

import java.util.concurrent.ThreadFactory;

/**
 * The default {@link ThreadFactory} of Watchkeeper's own threads: platform daemon threads, so a thread left running
 * (a reconcile that ignores its interrupt, say) never keeps the JVM from exiting. Callers name the threads.
 *
 * <pre>{@code
 * ThreadFactory threads = DaemonThreads.factory();
 * Thread worker = threads.newThread(body);
 * }</pre>
 */
public final class DaemonThreads {

    private static final ThreadFactory FACTORY = DaemonThreads::newThread;

    private DaemonThreads() {
    }

    /** A factory of unstarted daemon platform threads. */
    public static ThreadFactory factory() {
        return FACTORY;
    }

    /** An unstarted daemon platform thread that runs {@code body}. */
    public static Thread newThread(Runnable body) {
        Thread thread = new Thread(body);
        thread.setDaemon(true);
        return thread;
    }
}
