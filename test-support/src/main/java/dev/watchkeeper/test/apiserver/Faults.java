package dev.watchkeeper.test.apiserver;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** The injected faults and the request record; thread-safe. */
final class Faults {

    private final Set<String> forbidden = ConcurrentHashMap.newKeySet();
    private final Set<String> hidden = ConcurrentHashMap.newKeySet();
    private final AtomicInteger throttled = new AtomicInteger();
    private final AtomicReference<Duration> retryAfter = new AtomicReference<>(Duration.ofSeconds(1));
    private final AtomicReference<Duration> delay = new AtomicReference<>(Duration.ZERO);
    private final List<ServedRequest> requests = new ArrayList<>();
    private volatile long outageEndsAt;
    private volatile boolean outage;

    void record(ServedRequest request) {
        synchronized (requests) {
            requests.add(request);
        }
    }

    List<ServedRequest> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    void startOutage(Duration duration) {
        outageEndsAt = System.nanoTime() + duration.toNanos();
        outage = true;
    }

    void endOutage() {
        outage = false;
    }

    boolean inOutage() {
        if (outage && System.nanoTime() - outageEndsAt >= 0) {
            outage = false;
        }
        return outage;
    }

    void forbid(String group, String plural) {
        forbidden.add(key(group, plural));
    }

    void hide(String group, String plural) {
        hidden.add(key(group, plural));
    }

    void allow(String group, String plural) {
        forbidden.remove(key(group, plural));
        hidden.remove(key(group, plural));
    }

    boolean isForbidden(ApiResource resource) {
        return forbidden.contains(key(resource.group(), resource.plural()));
    }

    boolean isHidden(ApiResource resource) {
        return hidden.contains(key(resource.group(), resource.plural()));
    }

    void throttle(int requests, Duration retryAfter) {
        this.retryAfter.set(retryAfter);
        throttled.set(requests);
    }

    /** Takes one throttled request; returns the Retry-After to answer with, or {@code null} when not throttled. */
    Duration takeThrottled() {
        int left = throttled.getAndUpdate(n -> Math.max(0, n - 1));
        return left > 0 ? retryAfter.get() : null;
    }

    void delay(Duration delay) {
        this.delay.set(delay);
    }

    Duration delay() {
        return delay.get();
    }

    private static String key(String group, String plural) {
        return plural + "." + group;
    }
}
