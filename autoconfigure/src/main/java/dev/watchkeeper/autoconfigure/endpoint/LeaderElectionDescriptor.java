package dev.watchkeeper.autoconfigure.endpoint;

import dev.watchkeeper.internal.leader.LeaderElectionSnapshot;
import java.time.Instant;

/**
 * Leader election as the endpoint shows it; only {@code enabled=false} when it is off.
 *
 * @param enabled        whether reconcilers run only on the replica that holds the Lease
 * @param role           {@code leader} or {@code follower}
 * @param identity       this replica's identity
 * @param holder         who holds the Lease, as last read
 * @param leaseName      the Lease
 * @param leaseNamespace its namespace
 * @param acquiredAt     when the holder acquired it
 * @param lastRenewAt    when the holder last renewed it (by its clock)
 * @param transitions    how many times the holder changed
 */
public record LeaderElectionDescriptor(boolean enabled, String role, String identity, String holder,
        String leaseName, String leaseNamespace, Instant acquiredAt, Instant lastRenewAt, Integer transitions) {

    static final LeaderElectionDescriptor DISABLED = new LeaderElectionDescriptor(false, null, null, null, null, null,
            null, null, null);

    public static LeaderElectionDescriptor of(LeaderElectionSnapshot s) {
        return new LeaderElectionDescriptor(true, s.isLeader() ? "leader" : "follower", s.identity(), s.holder(),
                s.leaseName(), s.leaseNamespace(), s.acquiredAt(), s.lastRenewAt(), s.transitions());
    }
}
