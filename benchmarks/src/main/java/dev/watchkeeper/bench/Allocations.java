package dev.watchkeeper.bench;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;

/**
 * Bytes allocated by all live threads between {@link #start()} and {@link #end()}, from HotSpot's per-thread
 * counters: unlike time, it does not drift with the machine's load. {@link #end()} must run while the round's
 * threads are still alive (a thread that ends before it is not counted).
 */
final class Allocations {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static Map<Long, Long> atStart = Map.of();
    private static volatile long allocated;

    private Allocations() {
    }

    static void start() {
        atStart = snapshot();
        allocated = 0;
    }

    /** Records the bytes allocated since {@link #start()} and returns {@link System#nanoTime()}. */
    static long end() {
        long now = System.nanoTime();
        long total = 0;
        for (Map.Entry<Long, Long> thread : snapshot().entrySet()) {
            total += thread.getValue() - atStart.getOrDefault(thread.getKey(), 0L);
        }
        allocated = total;
        return now;
    }

    static long allocated() {
        return allocated;
    }

    private static Map<Long, Long> snapshot() {
        long[] ids = THREADS.getAllThreadIds();
        long[] bytes = THREADS.getThreadAllocatedBytes(ids);
        Map<Long, Long> byThread = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] >= 0) {
                byThread.put(ids[i], bytes[i]);
            }
        }
        return byThread;
    }
}
