package dev.watchkeeper.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Tracks, between {@link #start()} and {@link #stop()}, the peak heap in use (sampled every 5 ms) and the largest
 * heap left after any garbage collection (from GC notifications): the second is the live set plus the garbage
 * the collector chose to keep, the honest "how much did this need" of a running pipeline.
 */
final class HeapTracker implements AutoCloseable {

    private static final java.util.Set<String> HEAP_POOLS = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == java.lang.management.MemoryType.HEAP)
            .map(java.lang.management.MemoryPoolMXBean::getName)
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener = this::onGc;
    private volatile boolean running;
    private volatile long peakUsed;
    private volatile long peakAfterGc;
    private Thread sampler;

    HeapTracker() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(listener, null, null);
                emitters.add(emitter);
            }
        }
    }

    void start() {
        peakUsed = used();
        peakAfterGc = 0;
        running = true;
        sampler = new Thread(() -> {
            while (running) {
                long used = used();
                if (used > peakUsed) {
                    peakUsed = used;
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Stops sampling; returns {peak used, peak after GC} in bytes. */
    long[] stop() {
        running = false;
        try {
            sampler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new long[] {peakUsed, peakAfterGc};
    }

    static long used() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Heap in use after two full collections: the live set. */
    static long usedAfterGc() {
        System.gc();
        System.gc();
        return used();
    }

    private void onGc(Notification notification, Object handback) {
        if (!running || !GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        long after = 0;
        for (var pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (HEAP_POOLS.contains(pool.getKey())) {
                after += pool.getValue().getUsed();
            }
        }
        if (after > peakAfterGc) {
            peakAfterGc = after;
        }
    }

    @Override
    public void close() {
        running = false;
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(listener);
            } catch (Exception ignored) {
                // already gone
            }
        }
    }
}
