package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.settings.InvalidSettingException;

/**
 * The overall rate limit on a reconciler's error retries: client-go's {@code BucketRateLimiter}, a token bucket that
 * refills at {@code qps} tokens per second up to {@code burst}. Every retry after an error takes a token, and waits
 * for the later of its per-object backoff and its token (client-go's {@code DefaultControllerRateLimiter}, the max of
 * both), so a storm of failing objects cannot retry faster than {@code qps} once the burst is spent. Events,
 * requeues and resyncs take no token.
 *
 * <pre>{@code
 * ReconcilerSettings settings = ReconcilerSettings.defaults().withRateLimit(RateLimit.clientGo());
 * }</pre>
 *
 * @param qps   tokens added per second (&gt; 0)
 * @param burst the most tokens the bucket holds, and so the retries that may start at once (≥ 1)
 */
public record RateLimit(double qps, int burst) {

    /** client-go's {@code DefaultControllerRateLimiter}: tokens per second. */
    public static final String DEFAULT_QPS = "10";

    /** client-go's {@code DefaultControllerRateLimiter}: tokens the bucket holds. */
    public static final String DEFAULT_BURST = "100";

    public RateLimit {
        if (!(qps > 0) || Double.isInfinite(qps)) {
            throw new InvalidSettingException("qps", qps, "must be a positive number");
        }
        if (burst < 1) {
            throw new InvalidSettingException("burst", burst, "must be at least 1");
        }
    }

    /** client-go's numbers: {@value #DEFAULT_QPS} per second, burst {@value #DEFAULT_BURST}. */
    public static RateLimit clientGo() {
        return new RateLimit(Double.parseDouble(DEFAULT_QPS), Integer.parseInt(DEFAULT_BURST));
    }
}
