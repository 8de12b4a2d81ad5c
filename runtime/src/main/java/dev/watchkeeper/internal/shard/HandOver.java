package dev.watchkeeper.internal.shard;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fenced hand-over of one replica's slots: the epoch it computes ({@code target}), the slots that gives it
 * ({@code assigned}), the slots it reconciles ({@code active}), the drain in progress and the epoch it adopted with
 * the slots it claims, and the calls on its {@link ShardParticipant}s. When the epoch changes it {@code assign}s the
 * new slots, {@code narrow}s to {@code active ∩ assigned} and, once every participant drained, adopts the epoch: its
 * next Lease write names the epoch and claims its assigned slots. It {@code widen}s to an assigned slot only when a
 * list read after that write shows no other live member's Lease claiming it; slots still claimed wait for the next
 * read. A new member starts with no active slot and no claim.
 *
 * <p><b>Why no slot is active on two replicas at once.</b> Two facts: (1) a replica's active slots always lie within
 * the claim its Lease holds, since it narrows and drains before it writes a smaller claim, and widens only into a
 * claim it wrote; (2) reads and writes of Leases are linearizable. Suppose X and Y both have slot {@code s} active at
 * time T; X widened to it on a list read at {@code rX}, after writing a claim with {@code s} at {@code wX < rX}; Y
 * likewise at {@code wY < rY}; say {@code rX < rY}. By fact 1, X's Lease claims {@code s} from {@code wX} until T.
 * Y's read at {@code rY > rX > wX} therefore either showed X's claim of {@code s}, and Y would not have widened to it,
 * or showed X expired: X's Lease unchanged for a lease duration of Y's time ({@link Membership}); X stops reconciling
 * when it misses its renew deadline ({@link MemberLease}), which is shorter than the lease duration, so X had given up
 * {@code s} before Y could take it (in-flight work of X gets lease duration − renew deadline to end). So a slot that
 * leaves is drained before its replica stops claiming it, and a slot gained is activated only after its previous
 * holder stopped claiming it or expired: a replica that crashed holds up only its own slots, and only until it
 * expires.
 *
 * <p>Touched by the coordinator's thread only, but for {@link #drained()}.
 */
final class HandOver {

    // sharding's log lines share the coordinator's category
    private static final Logger log = LoggerFactory.getLogger(ShardCoordinator.class);

    private final String identity;
    private final List<ShardParticipant> participants = new CopyOnWriteArrayList<>();
    private final Runnable wake;
    private final BiConsumer<Slots, Slots> activeSet;
    private SlotAssignment target;
    private Slots assigned = Slots.none();
    private Slots active = Slots.none();
    /** The epoch this replica adopted (drained for) and its slots: what its next Lease write names and claims. */
    private Adoption adopted;
    private volatile CompletableFuture<Void> draining;
    private Instant handOverSince;
    private long handOvers;
    private Duration lastHandOver;

    /**
     * Hands over {@code identity}'s slots; {@code wake} runs when a drain completes, {@code activeSet} (with the
     * slots before and after) every time the active slots are set, changed or not.
     */
    HandOver(String identity, Runnable wake, BiConsumer<Slots, Slots> activeSet) {
        this.identity = identity;
        this.wake = wake;
        this.activeSet = activeSet;
    }

    void add(ShardParticipant participant) {
        participants.add(participant);
    }

    /**
     * An epoch adopted and the slots it gives this replica: what its Lease names and claims.
     *
     * @param epochHex the adopted epoch
     * @param claimed  the slots that epoch assigns to this replica
     */
    record Adoption(String epochHex, Slots claimed) {
    }

    /**
     * After a read of the group's Leases, with {@code computed} the live members' assignment: a new epoch starts a
     * hand-over; once our Lease says we adopted the current one ({@code writtenAdoption}), we widen to the assigned
     * slots no other live member claims (the fence), and the hand-over completes when that is all of them.
     */
    void advance(SlotAssignment computed, String writtenAdoption, Membership membership, Instant now) {
        if (target == null || computed.epoch() != target.epoch()) {
            begin(computed, now);
        } else if (target.epochHex().equals(writtenAdoption)) {
            widen(assigned.minus(membership.claimedByOthers(now)), now);
        }
    }

    /** A new epoch: the watchers list the new assignment, and what left is drained before we adopt it. */
    private void begin(SlotAssignment next, Instant now) {
        target = next;
        assigned = next.slotsOf(identity);
        if (handOverSince == null) {
            handOverSince = now;
        }
        Slots kept = active.intersection(assigned);
        List<CompletableFuture<Void>> drains = new ArrayList<>();
        for (ShardParticipant participant : participants) {
            participant.assign(assigned);
            drains.add(participant.narrow(kept));
        }
        CompletableFuture<Void> drain = CompletableFuture.allOf(drains.toArray(CompletableFuture[]::new));
        draining = drain;
        drain.whenComplete((done, failure) -> wake.run());
        log.info("sharding: epoch {}… computed; active {} → {} until adopted and released; {} members", brief(next),
                active, kept, next.members().size());
        setActive(kept);
    }

    /** Reconciles {@code free} too (assigned slots nobody else claims); all assigned ones complete the hand-over. */
    private void widen(Slots free, Instant now) {
        Slots next = active.union(free);
        if (!next.equals(active)) {
            for (ShardParticipant participant : participants) {
                participant.widen(next);
            }
            log.info("sharding: epoch {}… adopted; active {} → {}{}; {} members", brief(target), active, next,
                    next.equals(assigned) ? "" : " until others release " + assigned.minus(next),
                    target.members().size());
            setActive(next);
        }
        if (active.equals(assigned) && handOverSince != null) {
            handOvers++;
            lastHandOver = Duration.between(handOverSince, now);
            handOverSince = null;
        }
    }

    /** A drain that completed: adopt its epoch, or, when a participant failed, start the hand-over over. */
    void settleDrain() {
        CompletableFuture<Void> drain = draining;
        if (drain != null && drain.isDone()) {
            draining = null;
            try {
                drain.join();
                adopted = new Adoption(target.epochHex(), assigned);
            } catch (CompletionException | CancellationException e) {
                log.error("sharding: a participant failed to narrow to {}; narrowing again", active, e);
                target = null; // the next round starts the hand-over over
            }
        }
    }

    /** Whether a drain completed that {@link #settleDrain()} has not yet settled; any thread. */
    boolean drained() {
        CompletableFuture<Void> drain = draining;
        return drain != null && drain.isDone();
    }

    /** Whether our Lease says we adopted the current epoch and we wait for slots others still claim. */
    boolean awaitingOthers(String writtenAdoption) {
        return target != null && target.epochHex().equals(writtenAdoption) && handOverSince != null;
    }

    /** The replica is lost: forget the epoch and any hand-over, so it joins anew once it renews. */
    void abandon() {
        target = null;
        adopted = null;
        draining = null;
        handOverSince = null;
    }

    /** Narrows every participant to no slot; the drain it returns completes when every one did. */
    CompletableFuture<Void> narrowToNothing() {
        List<CompletableFuture<Void>> drains = new ArrayList<>();
        for (ShardParticipant participant : participants) {
            drains.add(participant.narrow(Slots.none()));
        }
        setActive(Slots.none());
        return CompletableFuture.allOf(drains.toArray(CompletableFuture[]::new));
    }

    private void setActive(Slots next) {
        Slots before = active;
        active = next;
        activeSet.accept(before, next);
    }

    /** The epoch this replica adopted (drained for) and the slots it claims, {@code null} when none. */
    Adoption adoption() {
        return adopted;
    }

    /** The epoch computed last (hex), {@code null} before the first or after a loss. */
    String epoch() {
        return target == null ? null : target.epochHex();
    }

    Slots assigned() {
        return assigned;
    }

    Slots active() {
        return active;
    }

    /** When the hand-over in progress began; {@code null} when none is. */
    Instant since() {
        return handOverSince;
    }

    /** Completed hand-overs. */
    long count() {
        return handOvers;
    }

    /** How long the last completed hand-over took; {@code null} before the first. */
    Duration last() {
        return lastHandOver;
    }

    /** The first 8 hex digits of an epoch, for log lines. */
    private static String brief(SlotAssignment assignment) {
        return assignment.epochHex().substring(0, 8);
    }
}
