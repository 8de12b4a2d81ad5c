package dev.watchkeeper.internal.shard;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which member owns each of the {@value Slots#COUNT} slots, as a pure function of the set of live members, so every
 * replica that sees the same members computes the same assignment: rendezvous (highest-random-weight) hashing. Slot
 * {@code s} goes to the member with the largest {@code mix(fnv1a64(identity) ^ s)} (ties to the smaller identity),
 * where {@code mix} is splitmix64's finalizer. Shares come out even (the slots of a member are independent draws), and
 * one member joining or leaving moves only the slots it wins or held, about {@code 1/N} of the space.
 *
 * <pre>{@code
 * SlotAssignment assignment = SlotAssignment.of(List.of("pod-a", "pod-b"));
 * assignment.slotsOf("pod-a");   // about half the slots
 * assignment.epochHex();         // the same on every replica that sees pod-a and pod-b
 * }</pre>
 *
 * @param members the live identities, sorted
 * @param epoch   a 64-bit hash of the sorted identities: two replicas with the same epoch hold the same assignment
 * @param owners  the owner of each slot, indexed by slot; empty when there is no member
 */
public record SlotAssignment(List<String> members, long epoch, List<String> owners) {

    public SlotAssignment {
        members = List.copyOf(members);
        owners = List.copyOf(owners);
    }

    /** The assignment of every slot over {@code members} (duplicates count once). */
    public static SlotAssignment of(Collection<String> members) {
        List<String> sorted = List.copyOf(new TreeSet<>(members));
        List<String> owners = new ArrayList<>(Slots.COUNT);
        if (!sorted.isEmpty()) {
            long[] seeds = sorted.stream().mapToLong(UidHash::of).toArray();
            for (int slot = 0; slot < Slots.COUNT; slot++) {
                int best = 0;
                long bestWeight = mix(seeds[0] ^ slot);
                for (int i = 1; i < seeds.length; i++) {
                    long weight = mix(seeds[i] ^ slot);
                    // sorted order and a strict comparison: a tie goes to the smaller identity
                    if (Long.compareUnsigned(weight, bestWeight) > 0) {
                        best = i;
                        bestWeight = weight;
                    }
                }
                owners.add(sorted.get(best));
            }
        }
        return new SlotAssignment(sorted, epochOf(sorted), owners);
    }

    /** The slots {@code member} owns; none when it is not a member. */
    public Slots slotsOf(String member) {
        Slots slots = Slots.none();
        for (int slot = 0; slot < owners.size(); slot++) {
            if (owners.get(slot).equals(member)) {
                slots = slots.with(slot);
            }
        }
        return slots;
    }

    /** Every member's slots. */
    public Map<String, Slots> slots() {
        Map<String, Slots> slots = new HashMap<>();
        members.forEach(member -> slots.put(member, slotsOf(member)));
        return slots;
    }

    /** The epoch as written in member Leases: 16 hex digits. */
    public String epochHex() {
        return hex(epoch);
    }

    /** {@code epoch} as 16 hex digits. */
    public static String hex(long epoch) {
        return HexFormat.of().toHexDigits(epoch);
    }

    /** splitmix64's finalizer: every input bit flips each output bit with probability about one half. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** FNV-1a 64 over the identities, each followed by a newline (not a valid identity character), mixed. */
    private static long epochOf(List<String> sorted) {
        return mix(UidHash.of(String.join("\n", sorted) + "\n"));
    }
}
