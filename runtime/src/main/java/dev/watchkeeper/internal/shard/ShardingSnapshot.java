package dev.watchkeeper.internal.shard;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A replica's part in sharding as last observed, for the endpoint, metrics and events. Slots are written as runs of
 * the 128 slots of the uid-hash space, e.g. {@code [0-20,64]}.
 *
 * @param identity         this replica
 * @param group            the group it shares the objects with
 * @param epoch            the assignment this replica computes from the live members (hex), {@code null} before
 *                         the first
 * @param members          every member Lease of the group as last read, by identity
 * @param assigned         the slots the assignment gives this replica (its watchers list these)
 * @param assignedFraction their share of the space, 0 to 1
 * @param active           the slots whose keys this replica reconciles now
 * @param activeFraction   their share of the space, 0 to 1
 * @param phase            where the replica stands
 * @param handOverSince    when the hand-over in progress began; {@code null} when none is
 * @param handOvers        completed hand-overs (active reached assigned for a new epoch)
 * @param lastHandOver     how long the last completed one took; {@code null} before the first
 */
public record ShardingSnapshot(String identity, String group, String epoch, List<Member> members, String assigned,
        double assignedFraction, String active, double activeFraction, Phase phase, Instant handOverSince,
        long handOvers, Duration lastHandOver) {

    public ShardingSnapshot {
        members = List.copyOf(members);
    }

    /** Where a replica stands. */
    public enum Phase {
        /** Started (or renewing again after {@link #LOST}) and not yet adopted any assignment: reconciles nothing. */
        JOINING,
        /** Adopting a new assignment: reconciles each of its slots once no other live member claims it. */
        HANDING_OVER,
        /** Reconciles all the slots the current assignment gives it. */
        SETTLED,
        /** Could not renew its member Lease within the renew deadline: reconciles nothing until it renews. */
        LOST
    }

    /**
     * One member of the group.
     *
     * @param identity     its {@code holderIdentity}
     * @param adoptedEpoch the assignment its Lease says it adopted; {@code null} when none yet
     * @param live         whether this replica counts it: its Lease changed within its duration by our clock (our
     *                     own: renewed within the renew deadline)
     */
    public record Member(String identity, String adoptedEpoch, boolean live) {
    }
}
