package dev.watchkeeper.internal.shard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.internal.shard.ShardingSnapshot.Phase;
import dev.watchkeeper.test.VirtualTime;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Coordinators against the in-memory API server on one virtual clock, each stepped by hand when its next round is
 * due (the delay {@code step()} returns, as its thread would wait), in a fixed order at equal times. After every
 * step no slot may be active on two replicas.
 */
class ShardCoordinatorTest {

    private static final ShardingSettings DEFAULTS = ShardingSettings.of("app", "default", "x");
    private static final Duration LEASE = DEFAULTS.leaseDuration();
    private static final Duration RETRY = DEFAULTS.retryPeriod();

    private final InMemoryApiServer server = new InMemoryApiServer().start();
    private final VirtualTime time = new VirtualTime();
    private final List<Replica> replicas = new ArrayList<>();

    @AfterEach
    void stop() {
        replicas.stream().filter(replica -> replica.running).forEach(replica -> replica.coordinator.close());
        server.close();
    }

    @Test
    void aLoneReplicaTakesEverySlotAfterAdoptingItsEpoch() {
        Replica a = join("replica-a");

        a.step(); // computes its epoch, narrows to nothing, adopts
        assertThat(a.participant.active).isEqualTo(Slots.none());
        assertThat(a.participant.assigned).isEqualTo(Slots.all());
        assertThat(lease("replica-a").getMetadata().getAnnotations())
                .containsEntry(ShardCoordinator.ADOPTED_EPOCH, a.snapshot().epoch());
        assertThat(lease("replica-a").getMetadata().getLabels()).containsEntry(ShardCoordinator.GROUP_LABEL, "app");
        run(RETRY);

        assertThat(a.participant.active).isEqualTo(Slots.all());
        assertThat(a.snapshot().phase()).isEqualTo(Phase.SETTLED);
        assertThat(a.snapshot().active()).isEqualTo("[0-127]");
        assertThat(a.snapshot().handOvers()).isEqualTo(1);
    }

    @Test
    void joinsConvergeToEverySlotActiveExactlyOnceAndANewMemberStartsWithNothing() {
        Replica a = join("replica-a");
        run(RETRY.multipliedBy(3));
        assertThat(a.participant.active).isEqualTo(Slots.all());

        Replica b = join("replica-b");
        assertThat(b.participant.calls).isEmpty();
        Instant joined = time.now();
        runUntil(this::converged, LEASE);
        System.out.println("second replica joined in (virtual time) " + Duration.between(joined, time.now()));
        assertThat(b.participant.calls.get(0)).startsWith("assign");
        assertThat(b.participant.calls.get(1)).isEqualTo("narrow []");
        assertThat(Duration.between(joined, time.now())).isLessThanOrEqualTo(RETRY.multipliedBy(2));

        Replica c = join("replica-c");
        joined = time.now();
        runUntil(this::converged, LEASE);
        assertThat(Duration.between(joined, time.now())).isLessThanOrEqualTo(RETRY.multipliedBy(2));
        SlotAssignment expected = SlotAssignment.of(List.of("replica-a", "replica-b", "replica-c"));
        for (Replica replica : List.of(a, b, c)) {
            assertThat(replica.participant.active).isEqualTo(expected.slotsOf(replica.identity));
            assertThat(replica.snapshot().epoch()).isEqualTo(expected.epochHex());
            assertThat(replica.snapshot().members()).extracting(ShardingSnapshot.Member::identity)
                    .containsExactly("replica-a", "replica-b", "replica-c");
        }
    }

    @Test
    void aMemberThatHasNotDrainedHoldsBackTheOthersGainingItsSlots() {
        Replica a = join("replica-a");
        run(RETRY.multipliedBy(3));
        a.participant.hold = true; // its next narrow does not complete
        Replica b = join("replica-b");
        run(LEASE); // b is live to a and a keeps renewing: nothing expires, b just waits

        assertThat(b.participant.active).isEqualTo(Slots.none());
        assertThat(b.snapshot().phase()).isEqualTo(Phase.HANDING_OVER);
        assertThat(a.participant.active).isEqualTo(a.participant.assigned);
        assertThat(a.participant.assigned.size()).isLessThan(Slots.COUNT);

        a.participant.release();
        runUntil(this::converged, RETRY.multipliedBy(2));
        assertThat(b.participant.active).isEqualTo(b.participant.assigned).isNotEqualTo(Slots.none());
    }

    @Test
    void aReplicaKilledWithoutReleaseLosesItsSlotsToTheOthersWithinLeaseDurationAndARetryPeriod() {
        Replica a = join("replica-a");
        Replica b = join("replica-b");
        Replica c = join("replica-c");
        runUntil(this::converged, LEASE);
        run(RETRY.multipliedBy(2));

        Instant lastRenewal = lease("replica-c").getSpec().getRenewTime().toInstant();
        c.kill();
        runUntil(this::converged, LEASE.plus(RETRY.multipliedBy(2)));

        Duration failover = Duration.between(lastRenewal, time.now());
        System.out.println("slots of a killed replica taken over after (virtual time) " + failover);
        assertThat(failover).isGreaterThanOrEqualTo(LEASE).isLessThanOrEqualTo(LEASE.plus(RETRY));
        assertThat(a.participant.active.union(b.participant.active)).isEqualTo(Slots.all());
        assertThat(a.snapshot().members()).filteredOn(ShardingSnapshot.Member::live)
                .extracting(ShardingSnapshot.Member::identity).containsExactly("replica-a", "replica-b");
        run(RETRY);
        assertThat(leaseExists("replica-c")).as("the others delete the Lease of a member that expired").isFalse();
        assertThat(leaseExists("replica-a")).isTrue();
    }

    /**
     * The fence holds back a slot only while another live member claims it: when one replica crashes and another has
     * not yet drained for the new epoch, the third still takes the crashed one's slots it is assigned at once, and
     * waits only for the slots the slow one still claims.
     */
    @Test
    void aCrashedReplicasSlotsAreTakenOverWithoutWaitingForASlowThirdToAdopt() {
        Replica a = join("replica-a");
        Replica b = join("replica-b");
        Replica c = join("replica-c");
        runUntil(this::converged, LEASE);
        run(RETRY.multipliedBy(2));
        Slots crashed = c.participant.active;
        Slots slowHeld = b.participant.active;

        b.participant.hold = true; // b's next narrow does not complete: it never adopts the next epoch
        Instant lastRenewal = lease("replica-c").getSpec().getRenewTime().toInstant();
        c.kill();
        Slots taken = SlotAssignment.of(List.of("replica-a", "replica-b")).slotsOf("replica-a").intersection(crashed)
                .minus(slowHeld);
        runUntil(() -> a.participant.active.intersection(taken).equals(taken), LEASE.plus(RETRY.multipliedBy(2)));

        assertThat(Duration.between(lastRenewal, time.now())).isLessThanOrEqualTo(LEASE.plus(RETRY));
        assertThat(taken).isNotEqualTo(Slots.none());
        assertThat(lease("replica-b").getMetadata().getAnnotations().get(ShardCoordinator.ADOPTED_EPOCH))
                .isNotEqualTo(a.snapshot().epoch());
        assertThat(a.participant.active).isEqualTo(a.participant.assigned.minus(slowHeld));
    }

    /**
     * A replica cut off the API server goes on running: it stops reconciling at its renew deadline, before the others
     * count it expired (a lease duration after they last saw its Lease change) and take its slots.
     */
    @Test
    void aPartitionedReplicaGivesUpItsSlotsBeforeTheOthersTakeThem() {
        Replica a = join("replica-a");
        Replica b = join("replica-b");
        Replica c = join("replica-c");
        runUntil(this::converged, LEASE);
        run(RETRY);

        Instant lastRenewal = lease("replica-c").getSpec().getRenewTime().toInstant();
        c.partition();
        runUntil(() -> c.snapshot().phase() == Phase.LOST, LEASE);
        assertThat(c.participant.active).isEqualTo(Slots.none());
        assertThat(Duration.between(lastRenewal, time.now())).isLessThan(LEASE);
        c.running = false; // it would only log failures from here on
        runUntil(this::converged, LEASE);

        assertThat(Duration.between(lastRenewal, time.now())).isGreaterThanOrEqualTo(LEASE);
        assertThat(a.participant.active.union(b.participant.active)).isEqualTo(Slots.all());
    }

    @Test
    void aGracefulCloseHandsOverWithinAboutTwoRetryPeriods() {
        Replica a = join("replica-a");
        Replica b = join("replica-b");
        Replica c = join("replica-c");
        runUntil(this::converged, LEASE);
        time.advance(Duration.ofMillis(700)); // between rounds

        c.close();
        assertThat(c.participant.active).isEqualTo(Slots.none());
        assertThat(leaseExists("replica-c")).as("a closed replica deletes its released Lease").isFalse();
        Instant closed = time.now();
        runUntil(this::converged, LEASE);

        Duration handOver = Duration.between(closed, time.now());
        System.out.println("slots of a closed replica taken over after (virtual time) " + handOver);
        assertThat(handOver).isLessThanOrEqualTo(RETRY.multipliedBy(2));
        assertThat(a.participant.active.union(b.participant.active)).isEqualTo(Slots.all());
    }

    @Test
    void conflictsAndFailedLeaseWritesAreSurvived() throws ApiException {
        Replica a = join("replica-a");
        Replica b = join("replica-b");
        runUntil(this::converged, LEASE);

        V1Lease lease = lease("replica-a"); // someone else writes a's Lease: a's next renewal is answered 409
        lease.getMetadata().putAnnotationsItem("touched", "yes");
        new CoordinationV1Api(server.apiClient()).replaceNamespacedLease(lease.getMetadata().getName(), "default",
                lease).execute();
        int callsA = a.participant.calls.size();
        int callsB = b.participant.calls.size();
        run(RETRY);
        server.failRequests(3, 500); // then three failed calls, well within the renew deadline
        run(RETRY.multipliedBy(4));

        assertThat(converged()).isTrue();
        assertThat(a.snapshot().phase()).isEqualTo(Phase.SETTLED);
        assertThat(b.snapshot().phase()).isEqualTo(Phase.SETTLED);
        // nothing was handed over: the participants heard nothing more
        assertThat(a.participant.calls).hasSize(callsA);
        assertThat(b.participant.calls).hasSize(callsB);
        assertThat(lease("replica-a").getMetadata().getAnnotations()).containsEntry("touched", "yes");
    }

    @Test
    void anAdoptionWhoseWriteFailedIsNotTrustedByTheFence() {
        Replica a = join("replica-a");
        a.participant.hold = true;
        a.step(); // its drain is held: it writes its Lease without an adoption
        a.participant.release();
        server.failRequests(3, 500); // the list, the renewal and the read after it
        a.step(); // the drain settled: it adopts, but cannot write that

        assertThat(lease("replica-a").getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(a.snapshot().members()).singleElement()
                .extracting(ShardingSnapshot.Member::adoptedEpoch).isNull();
        a.step(); // writes the adoption; widens only on a later read
        assertThat(a.participant.active).isEqualTo(Slots.none());
        assertThat(lease("replica-a").getMetadata().getAnnotations())
                .containsEntry(ShardCoordinator.ADOPTED_EPOCH, a.snapshot().epoch());
        a.step();
        assertThat(a.participant.active).isEqualTo(Slots.all());
    }

    @Test
    void aReplicaThatCannotRenewWithinItsRenewDeadlineReconcilesNothingUntilItRenewsAgain() {
        Replica a = join("replica-a");
        Replica b = join("replica-b");
        runUntil(this::converged, LEASE);

        server.outage(Duration.ofMinutes(5));
        run(DEFAULTS.renewDeadline().plus(RETRY));
        assertThat(List.of(a, b)).allSatisfy(replica -> {
            assertThat(replica.participant.active).isEqualTo(Slots.none());
            assertThat(replica.snapshot().phase()).isEqualTo(Phase.LOST);
        });
        server.endOutage();
        runUntil(this::converged, LEASE);

        assertThat(a.snapshot().phase()).isEqualTo(Phase.SETTLED);
        assertThat(a.participant.active.union(b.participant.active)).isEqualTo(Slots.all());
    }

    // ---- the harness

    /** A replica: its coordinator, a participant recording what it is told, and when its next round is due. */
    private final class Replica {
        final String identity;
        final ApiClient client = server.apiClient();
        final ShardCoordinator coordinator;
        final RecordingParticipant participant = new RecordingParticipant();
        Instant due;
        boolean running = true;

        Replica(String identity) {
            this.identity = identity;
            this.coordinator = ShardCoordinator.builder(client, DEFAULTS.withIdentity(identity))
                    .timeSource(time).build();
            coordinator.addParticipant(participant);
            due = time.now();
        }

        void step() {
            due = time.now().plus(coordinator.step());
        }

        ShardingSnapshot snapshot() {
            return coordinator.snapshot();
        }

        /** Stops stepping, as a process that died: its Lease stays as it wrote it, and it reconciles nothing. */
        void kill() {
            running = false;
            participant.active = Slots.none();
        }

        /** Cuts this replica off the API server; it goes on stepping. */
        void partition() {
            client.setBasePath("http://127.0.0.1:1");
        }

        void close() {
            running = false;
            coordinator.close();
        }
    }

    /** Records the calls; narrows complete at once unless {@link #hold} is set. */
    private static final class RecordingParticipant implements ShardParticipant {
        final List<String> calls = new CopyOnWriteArrayList<>();
        volatile Slots assigned = Slots.none();
        volatile Slots active = Slots.none();
        volatile boolean hold;
        private final List<CompletableFuture<Void>> held = new CopyOnWriteArrayList<>();

        @Override
        public void assign(Slots assigned) {
            this.assigned = assigned;
            calls.add("assign " + assigned);
        }

        @Override
        public CompletableFuture<Void> narrow(Slots active) {
            this.active = active;
            calls.add("narrow " + active);
            if (!hold) {
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> drain = new CompletableFuture<>();
            held.add(drain);
            return drain;
        }

        @Override
        public void widen(Slots active) {
            this.active = active;
            calls.add("widen " + active);
        }

        void release() {
            hold = false;
            held.forEach(drain -> drain.complete(null));
        }
    }

    private Replica join(String identity) {
        Replica replica = new Replica(identity);
        replicas.add(replica);
        return replica;
    }

    /** Steps every running replica whose round is due, in order of due time, for {@code duration}. */
    private void run(Duration duration) {
        stepUntil(() -> false, duration);
    }

    /** Steps replicas until {@code done} holds, failing when {@code limit} passes first. */
    private void runUntil(BooleanSupplier done, Duration limit) {
        assertThat(stepUntil(done, limit)).as("done within %s of virtual time", limit).isTrue();
    }

    /** Steps replicas in order of due time (then of joining) until {@code done} holds or {@code limit} passed. */
    private boolean stepUntil(BooleanSupplier done, Duration limit) {
        Instant end = time.now().plus(limit);
        while (!done.getAsBoolean()) {
            Replica next = replicas.stream().filter(replica -> replica.running)
                    .min((x, y) -> x.due.compareTo(y.due)).orElseThrow();
            if (next.due.isAfter(end)) {
                time.advance(Duration.between(time.now(), end));
                return false;
            }
            if (next.due.isAfter(time.now())) {
                time.advance(Duration.between(time.now(), next.due));
            }
            next.step();
            assertNoSlotActiveTwice();
        }
        return true;
    }

    private void assertNoSlotActiveTwice() {
        Slots seen = Slots.none();
        for (Replica replica : replicas) {
            Slots active = replica.participant.active;
            assertThat(seen.intersection(active)).as("slots active on two replicas at %s", time.now())
                    .isEqualTo(Slots.none());
            seen = seen.union(active);
        }
    }

    /** Every slot active exactly once over the running replicas, each settled on its assignment. */
    private boolean converged() {
        Slots union = Slots.none();
        for (Replica replica : replicas) {
            if (!replica.running) {
                continue;
            }
            if (replica.snapshot().phase() != Phase.SETTLED) {
                return false;
            }
            union = union.union(replica.participant.active);
        }
        return union.equals(Slots.all());
    }

    private boolean leaseExists(String identity) {
        try {
            lease(identity);
            return true;
        } catch (AssertionError e) {
            if (e.getCause() instanceof ApiException api && api.getCode() == 404) {
                return false;
            }
            throw e;
        }
    }

    private V1Lease lease(String identity) {
        try {
            return new CoordinationV1Api(server.apiClient())
                    .readNamespacedLease(DEFAULTS.withIdentity(identity).memberLeaseName(), "default").execute();
        } catch (ApiException e) {
            throw new AssertionError("cannot read the member Lease of " + identity + ": HTTP " + e.getCode(), e);
        }
    }
}
