package dev.watchkeeper.internal.shard;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which member owns each of the {@value Slots#COUNT} slots, as a pure function of the set of live members, so every
 * replica that sees the same members computes the same assignment: rendezvous (highest-random-weight) hashing with
 * bounded loads. Member {@code m} bids {@code mix(fnv1a64(m) ^ s)} for slot {@code s} ({@code mix} is splitmix64's
 * finalizer); the bids are taken heaviest first, and a bid wins its slot when the slot is still free and the member
 * holds fewer than {@code ⌈128/N⌉} slots. So shares are equal to one slot (plain rendezvous scatters them: one of
 * two members would hold 77 slots), and a member joining or leaving moves about {@code 1/N} of the space: the slots it
 * wins or held, and the few that the changed bound lets change hands.
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
        String[] owners = new String[Slots.COUNT];
        if (!sorted.isEmpty()) {
            int capacity = (Slots.COUNT + sorted.size() - 1) / sorted.size();
            int[] held = new int[sorted.size()];
            for (Bid bid : bids(sorted)) {
                if (owners[bid.slot()] == null && held[bid.member()] < capacity) {
                    owners[bid.slot()] = sorted.get(bid.member());
                    held[bid.member()]++;
                }
            }
        }
        return new SlotAssignment(sorted, epochOf(sorted), sorted.isEmpty() ? List.of() : List.of(owners));
    }

    /** One member's weight for one slot; {@code member} indexes the sorted identities. */
    private record Bid(long weight, int member, int slot) {
    }

    /** Every member's bid for every slot, the heaviest first (unsigned), ties to the smaller identity, then slot. */
    private static List<Bid> bids(List<String> sorted) {
        List<Bid> bids = new ArrayList<>(sorted.size() * Slots.COUNT);
        for (int member = 0; member < sorted.size(); member++) {
            long seed = UidHash.of(sorted.get(member));
            for (int slot = 0; slot < Slots.COUNT; slot++) {
                bids.add(new Bid(mix(seed ^ slot), member, slot));
            }
        }
        bids.sort(Comparator.comparing(Bid::weight, Long::compareUnsigned).reversed()
                .thenComparingInt(Bid::member).thenComparingInt(Bid::slot));
        return bids;
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
