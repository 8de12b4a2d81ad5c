package dev.watchkeeper.internal.leader;

import java.time.Instant;

/**
 * The leader elector's state as last observed, for the endpoint, health and metrics.
 *
 * @param leaseName      the Lease
 * @param leaseNamespace its namespace
 * @param identity       this replica's identity
 * @param role           leader or follower
 * @param holder         who holds the Lease as last read; {@code null} when nobody does or it was never read
 * @param acquiredAt     when the holder acquired it (its {@code acquireTime}); {@code null} when unknown
 * @param lastRenewAt    when the holder last renewed it (its {@code renewTime}, by the holder's clock)
 * @param transitions    the Lease's {@code leaseTransitions}: how many times the holder changed
 */
public record LeaderElectionSnapshot(String leaseName, String leaseNamespace, String identity, Role role,
        String holder, Instant acquiredAt, Instant lastRenewAt, int transitions) {

    /** Whether this replica holds the Lease. */
    public enum Role {
        LEADER, FOLLOWER
    }

    /** Whether this replica holds the Lease. */
    public boolean isLeader() {
        return role == Role.LEADER;
    }
}
