package dev.watchkeeper.autoconfigure.endpoint;

import dev.watchkeeper.shard.ShardingSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Sharding as the endpoint shows it (absent when sharding is off). Slots are runs of the 128 slots of the uid-hash
 * space, e.g. {@code [0-20,64]}.
 *
 * @param identity         this replica
 * @param group            the group it shares the objects with
 * @param phase            {@code joining}, {@code handing-over}, {@code settled} or {@code lost}
 * @param epoch            the assignment computed from the live members (hex)
 * @param members          every member as last read
 * @param assigned         the slots assigned to this replica (its watchers list these)
 * @param assignedFraction their share of the space
 * @param active           the slots it reconciles now
 * @param activeFraction   their share of the space
 * @param handOverSince    when the hand-over in progress began
 * @param handOvers        completed hand-overs
 * @param lastHandOver     how long the last one took
 */
public record ShardingDescriptor(String identity, String group, String phase, String epoch,
        List<ShardingSnapshot.Member> members, String assigned, double assignedFraction, String active,
        double activeFraction, Instant handOverSince, long handOvers, Duration lastHandOver) {

    public static ShardingDescriptor of(ShardingSnapshot s) {
        return new ShardingDescriptor(s.identity(), s.group(),
                s.phase().name().toLowerCase(Locale.ROOT).replace('_', '-'), s.epoch(), s.members(), s.assigned(),
                s.assignedFraction(), s.active(), s.activeFraction(), s.handOverSince(), s.handOvers(),
                s.lastHandOver());
    }
}
