package dev.watchkeeper.test.apiserver;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** The injected faults and the request record; thread-safe. Outages are timed on the server's clock. */
final class Faults {

    private final Clock clock;
    private final Set<String> forbidden = ConcurrentHashMap.newKeySet();
    private final Set<String> hidden = ConcurrentHashMap.newKeySet();
    private final AtomicInteger throttled = new AtomicInteger();
    private final AtomicReference<Duration> retryAfter = new AtomicReference<>(Duration.ofSeconds(1));
    private final AtomicReference<Duration> delay = new AtomicReference<>(Duration.ZERO);
    private final AtomicReference<Duration> bodyPause = new AtomicReference<>(Duration.ZERO);
    private final AtomicInteger failing = new AtomicInteger();
    private final AtomicInteger failureCode = new AtomicInteger(500);
    private final AtomicInteger expiringWatchStarts = new AtomicInteger();
    private final List<ServedRequest> requests = new ArrayList<>();
    private volatile Instant outageEndsAt;
    private volatile boolean outage;

    Faults(Clock clock) {
        this.clock = clock;
    }

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
        outageEndsAt = clock.instant().plus(duration);
        outage = true;
    }

    void endOutage() {
        outage = false;
    }

    boolean inOutage() {
        if (outage && !clock.instant().isBefore(outageEndsAt)) {
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

    void fail(int requests, int code) {
        failureCode.set(code);
        failing.set(requests);
    }

    /** Takes one failing request; returns the status code to answer with, or 0 when not failing. */
    int takeFailure() {
        int left = failing.getAndUpdate(n -> Math.max(0, n - 1));
        return left > 0 ? failureCode.get() : 0;
    }

    void expireWatchStarts(int watches) {
        expiringWatchStarts.set(watches);
    }

    /** Takes one watch start to answer 410; returns whether this one is. */
    boolean takeExpiredWatchStart() {
        return expiringWatchStarts.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }

    void bodyPause(Duration pause) {
        bodyPause.set(pause);
    }

    /** The pause between the pieces of a response body; zero when bodies are not slowed. */
    Duration bodyPause() {
        return bodyPause.get();
    }

    private static String key(String group, String plural) {
        return plural + "." + group;
    }
}
