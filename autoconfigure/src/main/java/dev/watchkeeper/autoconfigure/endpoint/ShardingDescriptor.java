package dev.watchkeeper.autoconfigure.endpoint;

import dev.watchkeeper.internal.shard.ShardingSnapshot;
import dev.watchkeeper.watch.WatcherSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

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
 * @param filterModes      each sharded watcher's filter mode by name: {@code SERVER} when the API server applies
 *                         the shard selector, {@code CLIENT} when only the watcher filters, {@code UNKNOWN} until
 *                         a list said
 */
public record ShardingDescriptor(String identity, String group, String phase, String epoch,
        List<ShardingSnapshot.Member> members, String assigned, double assignedFraction, String active,
        double activeFraction, Instant handOverSince, long handOvers, Duration lastHandOver,
        Map<String, WatcherSnapshot.Shard.Mode> filterModes) {

    /** {@code s}, with the filter modes of those of {@code watchers} that are sharded. */
    public static ShardingDescriptor of(ShardingSnapshot s, List<WatcherSnapshot> watchers) {
        Map<String, WatcherSnapshot.Shard.Mode> modes = new TreeMap<>();
        for (WatcherSnapshot watcher : watchers) {
            if (watcher.shard() != null) {
                modes.put(watcher.name(), watcher.shard().mode());
            }
        }
        return new ShardingDescriptor(s.identity(), s.group(),
                s.phase().name().toLowerCase(Locale.ROOT).replace('_', '-'), s.epoch(), s.members(), s.assigned(),
                s.assignedFraction(), s.active(), s.activeFraction(), s.handOverSince(), s.handOvers(),
                s.lastHandOver(), modes);
    }
}
