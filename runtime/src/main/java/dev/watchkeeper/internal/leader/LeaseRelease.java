package dev.watchkeeper.internal.leader;

import dev.watchkeeper.internal.backoff.TimeSource;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Gives up a Lease this replica holds, so others take it at their next attempt instead of after its duration
 * (client-go's {@code release}). It reads the Lease first and writes only while the Lease still names us: the
 * released record (no holder, a duration of 1 s, the transitions kept) over the version just read. A write answered
 * 409 (someone wrote the Lease in between: a renewal of ours still in flight, an annotation, a label) is retried from
 * a new read, a retry period later, at most {@value #ATTEMPTS} attempts within the budget.
 *
 * <pre>{@code
 * LeaseRelease.Outcome outcome = new LeaseRelease(lock, "pod-a-x7k2", time, Duration.ofSeconds(2))
 *         .release(Duration.ofSeconds(10));
 * }</pre>
 */
public final class LeaseRelease {

    /** How many times the Lease is read and written before a release that keeps meeting 409 gives up. */
    static final int ATTEMPTS = 3;

    /** What a release did. */
    public sealed interface Outcome {
    }

    /** The Lease was ours and is now released, as {@code lease} says, at attempt {@code attempt}. */
    public record Released(LeaseLock.Observed lease, int attempt) implements Outcome {
    }

    /** The Lease names another holder, or none: it was left as it is. */
    public record NotOurs(LeaseLock.Observed lease) implements Outcome {
    }

    /** The Lease does not exist (someone deleted it): nothing to release. */
    public record Gone() implements Outcome {
    }

    /** Not released after {@code attempts} attempts; the last failure was {@code reason}. The Lease expires. */
    public record Failed(int attempts, String reason) implements Outcome {
    }

    private final LeaseLock lock;
    private final String identity;
    private final TimeSource time;
    private final Duration retryPeriod;
    private final Object monitor = new Object();

    /** Releases {@code lock}'s Lease when it names {@code identity}, retrying every {@code retryPeriod}. */
    public LeaseRelease(LeaseLock lock, String identity, TimeSource time, Duration retryPeriod) {
        this.lock = lock;
        this.identity = identity;
        this.time = time;
        this.retryPeriod = retryPeriod;
    }

    /** Releases the Lease within {@code budget} (calls are cancelled when it runs out); never throws. */
    public Outcome release(Duration budget) {
        Instant deadline = now().plus(budget);
        for (int attempt = 1; ; attempt++) {
            try {
                LeaseLock.Observed current = lock.get(Duration.between(now(), deadline));
                if (current == null) {
                    return new Gone();
                }
                if (!identity.equals(current.record().holder())) {
                    return new NotOurs(current);
                }
                OffsetDateTime stamp = OffsetDateTime.ofInstant(now(), ZoneOffset.UTC);
                LeaseRecord released = new LeaseRecord(null, 1, stamp, stamp, current.record().transitions());
                return new Released(lock.update(current, released, Duration.between(now(), deadline)), attempt);
            } catch (ApiException e) {
                // Only a conflict is worth another read: any other failure would most likely fail again.
                boolean retry = e.getCode() == 409 && attempt < ATTEMPTS
                        && Duration.between(now(), deadline).compareTo(retryPeriod) > 0;
                if (!retry) {
                    return new Failed(attempt, LeaseLock.describe(e));
                }
            }
            try {
                synchronized (monitor) {
                    time.await(monitor, retryPeriod, () -> false);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Failed(attempt, "interrupted while waiting to retry");
            }
        }
    }

    private Instant now() {
        return time.clock().instant();
    }
}
