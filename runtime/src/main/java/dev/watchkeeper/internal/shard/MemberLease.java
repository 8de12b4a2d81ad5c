package dev.watchkeeper.internal.shard;

import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.leader.LeaseLock;
import dev.watchkeeper.internal.leader.LeaseRecord;
import dev.watchkeeper.internal.leader.LeaseRelease;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This replica's own member Lease ({@code <group>-<identity>}: holder, duration, renew time, group label, the epoch
 * it adopted in {@value ShardCoordinator#ADOPTED_EPOCH} and the slots that epoch gives it in
 * {@value ShardCoordinator#CLAIMED_SLOTS}), and whether the replica is live: it is while it
 * renews within its renew deadline, and {@code lost} from when it missed that deadline until it renews again.
 *
 * <p>Touched by the coordinator's thread only (its close included).
 */
final class MemberLease {

    // sharding's log lines share the coordinator's category
    private static final Logger log = LoggerFactory.getLogger(ShardCoordinator.class);

    private final ApiClient apiClient;
    private final ShardingSettings settings;
    private final LeaseLock lock;
    private final LeaseRelease leaseRelease;
    private LeaseLock.Observed own;
    private Instant renewedAt;
    private boolean joined;
    private boolean lost;

    MemberLease(ApiClient apiClient, ShardingSettings settings, TimeSource time) {
        this.apiClient = apiClient;
        this.settings = settings;
        this.lock = new LeaseLock(apiClient, settings.namespace(), settings.memberLeaseName());
        this.leaseRelease = new LeaseRelease(lock, settings.identity(), time, settings.retryPeriod());
    }

    /**
     * Creates or renews the Lease with {@code adoption} as its adopted epoch and claimed slots ({@code null}: none);
     * a renewal that brings the replica back from {@code lost} makes it join anew.
     */
    void renew(Instant now, HandOver.Adoption adoption) throws ApiException {
        OffsetDateTime stamp = OffsetDateTime.ofInstant(now, ZoneOffset.UTC);
        int durationSeconds = (int) settings.leaseDuration().getSeconds();
        Duration limit = callLimit(now);
        LeaseLock.Observed written = null;
        if (own != null) {
            try {
                written = lock.update(own, metadata(own.lease().getMetadata(), adoption), next(own, stamp), limit);
            } catch (ApiException e) {
                log.debug("sharding: renewing {} over the version we wrote failed ({}); reading it again",
                        settings.memberLeaseName(), LeaseLock.describe(e));
            }
        }
        if (written == null) {
            LeaseLock.Observed current = lock.get(limit);
            written = current == null
                    ? lock.create(metadata(new V1ObjectMeta(), adoption),
                            new LeaseRecord(settings.identity(), durationSeconds, stamp, stamp, 0), limit)
                    : lock.update(current, metadata(current.lease().getMetadata(), adoption), next(current, stamp),
                            limit);
        }
        own = written;
        renewedAt = now;
        if (written.annotation(ShardCoordinator.ADOPTED_EPOCH) != null) {
            joined = true;
        }
        if (lost) {
            lost = false;
            log.info("sharding: {} renewed its member Lease {} again; it joins anew", settings.identity(),
                    settings.memberLeaseName());
        }
    }

    private LeaseRecord next(LeaseLock.Observed current, OffsetDateTime stamp) {
        LeaseRecord record = current.record();
        boolean ours = settings.identity().equals(record.holder());
        return new LeaseRecord(settings.identity(), (int) settings.leaseDuration().getSeconds(),
                ours && record.acquireTime() != null ? record.acquireTime() : stamp, stamp,
                ours ? record.transitions() : record.transitions() + 1);
    }

    /**
     * A copy of {@code read} with our group label, adopted epoch and claimed slots (other labels and annotations
     * kept). A copy, so that a write that fails leaves the Lease as last written as it was: its claim is what the
     * fence trusts.
     */
    private V1ObjectMeta metadata(V1ObjectMeta read, HandOver.Adoption adoption) {
        V1ObjectMeta metadata;
        try {
            metadata = V1ObjectMeta.fromJson(read.toJson());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the metadata of a member Lease", e);
        }
        metadata.putLabelsItem(ShardCoordinator.GROUP_LABEL, settings.group());
        Map<String, String> annotations = metadata.getAnnotations() == null ? new HashMap<>()
                : new HashMap<>(metadata.getAnnotations());
        if (adoption == null) {
            annotations.remove(ShardCoordinator.ADOPTED_EPOCH);
            annotations.remove(ShardCoordinator.CLAIMED_SLOTS);
        } else {
            annotations.put(ShardCoordinator.ADOPTED_EPOCH, adoption.epochHex());
            annotations.put(ShardCoordinator.CLAIMED_SLOTS, adoption.claimed().hex());
        }
        return metadata.annotations(annotations.isEmpty() ? null : annotations);
    }

    /** Whether the replica, not yet lost, has now missed its renew deadline. */
    boolean missedDeadline(Instant now) {
        return !lost && renewedAt != null && !now.isBefore(deadline());
    }

    /** The renew deadline passed: the others may count us expired once a lease duration passed. */
    void lose() {
        lost = true;
        joined = false;
    }

    /** Calls must end by the renew deadline; before the first renewal or while lost, a renew deadline each. */
    Duration callLimit(Instant now) {
        if (renewedAt == null || lost) {
            return settings.renewDeadline();
        }
        Duration left = Duration.between(now, deadline());
        return left.isNegative() || left.isZero() ? Duration.ofMillis(1) : left;
    }

    /** When we lose, counted from the start of the last successful renewal. */
    private Instant deadline() {
        return renewedAt.plus(settings.renewDeadline());
    }

    boolean lost() {
        return lost;
    }

    /** Whether a renewal since the replica (re)joined carried an adopted epoch. */
    boolean joined() {
        return joined;
    }

    /** Whether the replica counts itself live: renewed, and not lost since. */
    boolean live() {
        return !lost && renewedAt != null;
    }

    /** Whether the Lease was ever written: only then is there something to release. */
    boolean written() {
        return own != null;
    }

    /** The epoch our Lease says we adopted, as last written. */
    String writtenAdoption() {
        return own == null ? null : own.annotation(ShardCoordinator.ADOPTED_EPOCH);
    }

    /**
     * Releases the Lease ({@link LeaseRelease}) within a renew deadline, so the others rebalance at once, then deletes
     * it: identities change with every rollout, and a Lease left behind for each would pile up.
     */
    void release() {
        LeaseRelease.Outcome outcome = leaseRelease.release(settings.renewDeadline());
        if (outcome instanceof LeaseRelease.Released released) {
            own = released.lease();
            try {
                LeaseLock.delete(apiClient, own, settings.renewDeadline());
                log.info("sharding: {} released and deleted its member Lease {}", settings.identity(),
                        settings.memberLeaseName());
            } catch (ApiException e) {
                log.info("sharding: {} released its member Lease {}; deleting it failed ({}), the others delete it",
                        settings.identity(), settings.memberLeaseName(), LeaseLock.describe(e));
            }
        } else if (outcome instanceof LeaseRelease.Failed failed) {
            log.warn("sharding: {} could not release its member Lease {} after {} attempt(s) ({}); the others "
                    + "rebalance once it expires", settings.identity(), settings.memberLeaseName(), failed.attempts(),
                    failed.reason());
        } else {
            log.info("sharding: {} left its member Lease {} as it is: {}", settings.identity(),
                    settings.memberLeaseName(), outcome);
        }
    }
}
