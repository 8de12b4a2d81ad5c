package dev.watchkeeper.internal.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.shard.ShardingSnapshot.Phase;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Two coordinators on their own threads against the real API server, with short timing: they split the slots, and
 * when one closes the other takes all of them; at no observed moment is a slot active on both.
 */
@RealKubeApi
class ShardCoordinatorOnControlPlaneTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void twoReplicasSplitTheSlotsAndOneTakesAllWhenTheOtherCloses(KubeControlPlane plane, TestNamespace namespace) {
        Participant a = new Participant();
        Participant b = new Participant();
        ShardCoordinator first = coordinator(plane, namespace, "replica-a", a);
        ShardCoordinator second = coordinator(plane, namespace, "replica-b", b);
        try {
            first.start();
            second.start();
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(first.snapshot().phase()).isEqualTo(Phase.SETTLED);
                assertThat(second.snapshot().phase()).isEqualTo(Phase.SETTLED);
                assertThat(a.active.union(b.active)).isEqualTo(Slots.all());
                assertThat(first.snapshot().epoch()).isEqualTo(second.snapshot().epoch());
            });
            SlotAssignment both = SlotAssignment.of(List.of("replica-a", "replica-b"));
            assertThat(a.active).isEqualTo(both.slotsOf("replica-a"));
            assertThat(b.active).isEqualTo(both.slotsOf("replica-b"));

            V1Lease held = new CoordinationV1Api(plane.apiClient())
                    .readNamespacedLease(second.settings().memberLeaseName(), namespace.name()).execute();
            assertThat(held.getMetadata().getLabels()).containsEntry(ShardCoordinator.GROUP_LABEL, "app");
            assertThat(held.getMetadata().getAnnotations()).containsEntry(ShardCoordinator.CLAIMED_SLOTS,
                    both.slotsOf("replica-b").hex());
            second.close();
            assertThatThrownBy(() -> new CoordinationV1Api(plane.apiClient())
                    .readNamespacedLease(second.settings().memberLeaseName(), namespace.name()).execute())
                    .as("a closed replica releases and deletes its member Lease")
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
            await().atMost(WAIT).until(() -> a.active.equals(Slots.all()));
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            first.close();
            second.close();
        }
        assertThat(a.overlaps).as("moments a slot was active on both").isEmpty();
        assertThat(b.overlaps).isEmpty();
    }

    private Participant other;

    private ShardCoordinator coordinator(KubeControlPlane plane, TestNamespace namespace, String identity,
            Participant participant) {
        ShardingSettings settings = ShardingSettings.of("app", namespace.name(), identity)
                .withTiming(Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofMillis(500));
        ShardCoordinator coordinator = ShardCoordinator.builder(plane.apiClient(), settings).build();
        coordinator.addParticipant(participant);
        if (other == null) {
            other = participant;
        } else {
            participant.peer = other;
            other.peer = participant;
        }
        return coordinator;
    }

    /** Records its active slots; on every change checks them against its peer's. */
    private static final class Participant implements ShardParticipant {
        volatile Slots active = Slots.none();
        volatile Participant peer;
        final List<String> overlaps = new CopyOnWriteArrayList<>();

        @Override
        public void assign(Slots assigned) {
        }

        @Override
        public synchronized CompletableFuture<Void> narrow(Slots active) {
            this.active = active;
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public synchronized void widen(Slots active) {
            this.active = active;
            Slots both = peer == null ? Slots.none() : active.intersection(peer.active);
            if (!both.isEmpty()) {
                overlaps.add(both.toString());
            }
        }
    }
}
