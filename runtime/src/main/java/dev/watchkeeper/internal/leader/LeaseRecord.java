package dev.watchkeeper.internal.leader;

import io.kubernetes.client.openapi.models.V1LeaseSpec;
import java.time.OffsetDateTime;

/**
 * What a Lease says about its holder: the part of {@code spec} leader election reads and writes. Two replicas
 * compare records, never clocks: a record that stops changing for {@code leaseDurationSeconds} of the reader's own
 * time is free to take.
 *
 * @param holder               {@code holderIdentity}; {@code null} or empty when released
 * @param leaseDurationSeconds how long others wait after they saw this record before they take the Lease
 * @param acquireTime          when the holder acquired it
 * @param renewTime            when the holder last renewed it (by its own clock: informative only)
 * @param transitions          {@code leaseTransitions}: how many times the holder changed
 */
public record LeaseRecord(String holder, int leaseDurationSeconds, OffsetDateTime acquireTime, OffsetDateTime renewTime,
        int transitions) {

    public static LeaseRecord of(V1LeaseSpec spec) {
        if (spec == null) {
            return new LeaseRecord(null, 0, null, null, 0);
        }
        return new LeaseRecord(spec.getHolderIdentity(), valueOf(spec.getLeaseDurationSeconds()),
                spec.getAcquireTime(), spec.getRenewTime(), valueOf(spec.getLeaseTransitions()));
    }

    public boolean isHeld() {
        return holder != null && !holder.isEmpty();
    }

    V1LeaseSpec toSpec() {
        return new V1LeaseSpec().holderIdentity(holder).leaseDurationSeconds(leaseDurationSeconds)
                .acquireTime(acquireTime).renewTime(renewTime).leaseTransitions(transitions);
    }

    private static int valueOf(Integer value) {
        return value == null ? 0 : value;
    }
}
