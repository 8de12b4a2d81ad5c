package dev.watchkeeper.internal.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Secret;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class OwnWritesTest {

    private static final ObjectKey KEY = new ObjectKey("ns", "p");

    private static final ObjectKey OTHER = new ObjectKey("ns", "q");

    private final OwnWrites writes = new OwnWrites(WatchedKinds.of(ResourceType.of(V1ConfigMap.class),
            ResourceType.of(V1Secret.class)));
    private final List<String> queued = new ArrayList<>();

    @Test
    void theEventOfAWriteIsLetGoOnceAndAnyOtherVersionQueues() {
        writes.begin(KEY);
        writes.end(KEY, answer("7"), null, null);

        assertThat(event("7")).as("our write coming back").isTrue();
        assertThat(event("7")).as("only once").isFalse();
        assertThat(event("8")).as("someone else's change").isFalse();
        assertThat(queued).isEmpty();
    }

    @Test
    void anEventThatOutrunsTheAnswerOfItsWriteIsHeldAndThenLetGo() {
        writes.begin(KEY);
        assertThat(event("7")).as("held while the write is in flight").isTrue();
        writes.end(KEY, answer("7"), null, null);

        assertThat(queued).isEmpty();
        assertThat(event("7")).as("nothing left recorded for a version that already came back").isFalse();
    }

    @Test
    void eventsHeldDuringAWriteOfAnotherVersionOrAFailedWriteAreQueuedWhenItEnds() {
        writes.begin(KEY);
        event("6");
        writes.end(KEY, answer("7"), null, null);
        assertThat(queued).containsExactly("6");

        writes.begin(KEY);
        event("8");
        writes.end(KEY, null, null, null);
        assertThat(queued).containsExactly("6", "8");
    }

    @Test
    void heldEventsWaitForTheLastOfOverlappingWrites() {
        writes.begin(KEY);
        writes.begin(KEY);
        event("5");
        writes.end(KEY, answer("6"), null, null);
        assertThat(queued).isEmpty();
        writes.end(KEY, answer("7"), null, null);
        assertThat(queued).containsExactly("5");
        assertThat(event("6")).as("only the latest write of an object is remembered: an earlier one queues").isFalse();
        assertThat(event("7")).isTrue();
    }

    @Test
    void aDeletedObjectForgetsItsWrite() {
        writes.begin(KEY);
        writes.end(KEY, answer("7"), null, null);
        writes.forget("uid-p");
        assertThat(event("7")).isFalse();
    }

    @Test
    void aLaterVersionOfSomeoneElsesChangeQueuesAndDropsTheEntryOfTheWriteItSupersedes() {
        writes.begin(KEY);
        writes.end(KEY, answer("7"), null, null);

        assertThat(event("9")).as("someone else's change after ours, as a relist shows it").isFalse();
        assertThat(event("7")).as("nothing is left to let go").isFalse();
    }

    @Test
    void aKeyWaitsForItsOwnWriteAndIsWokenOnceTheWatchDeliversIt() {
        List<String> woken = new ArrayList<>();
        assertThat(writes.awaitSeen(KEY, () -> woken.add("p"))).as("nothing written yet").isFalse();
        write(KEY, answer("7"));

        assertThat(writes.awaitSeen(KEY, () -> woken.add("p"))).isTrue();
        assertThat(writes.waitingCount()).isEqualTo(1);
        event("6"); // an older version, still before our write
        assertThat(woken).isEmpty();
        event("7");

        assertThat(woken).containsExactly("p");
        assertThat(writes.waitingCount()).isZero();
        assertThat(writes.awaitSeen(KEY, () -> woken.add("again"))).isFalse();
    }

    @Test
    void aLaterVersionOrTheDeletionAlsoEndsTheWait() {
        List<String> woken = new ArrayList<>();
        write(KEY, answer("7"));
        writes.awaitSeen(KEY, () -> woken.add("later"));
        event("12");
        assertThat(woken).containsExactly("later");

        write(KEY, answer("13"));
        writes.awaitSeen(KEY, () -> woken.add("deleted"));
        writes.forget("uid-p");
        assertThat(woken).containsExactly("later", "deleted");
    }

    @Test
    void opaqueVersionsAreNotOrderedSoOnlyTheWrittenOneEndsTheWait() {
        List<String> woken = new ArrayList<>();
        write(KEY, answer("b7"));
        writes.awaitSeen(KEY, () -> woken.add("p"));
        event("c9");
        assertThat(woken).isEmpty();
        event("b7");
        assertThat(woken).containsExactly("p");
    }

    @Test
    void aChildIsChargedToTheKeyWhoseReconcileWroteItAndAPrimaryToItsOwnKey() {
        List<String> woken = new ArrayList<>();
        ObjectKey child = new ObjectKey("ns", "p-child");
        writes.begin(child);
        writes.end(child, secret("p-child", "uid-c", "20"), KEY, null);
        writes.begin(OTHER);
        writes.end(OTHER, configMap("q", "uid-q", "21"), KEY, null); // the primary q, written by p's reconcile

        assertThat(writes.awaitSeen(KEY, () -> woken.add("p"))).isTrue();
        assertThat(writes.awaitSeen(OTHER, () -> woken.add("q"))).isTrue();
        writes.handled(child, "uid-c", "20", () -> woken.add("queued"));
        writes.handled(OTHER, "uid-q", "21", () -> woken.add("queued"));

        assertThat(woken).containsExactly("p", "q");
    }

    @Test
    void aWriteOfAKindNoWatcherDeliversIsNotKeptSoNothingWaitsForIt() {
        ObjectKey pod = new ObjectKey("ns", "pod");
        writes.begin(pod);
        writes.end(pod, new V1Pod().apiVersion("v1").kind("Pod")
                .metadata(new V1ObjectMeta().namespace("ns").name("pod").uid("uid-pod").resourceVersion("30")), KEY,
                null);

        assertThat(writes.awaitSeen(KEY, () -> { })).isFalse();
    }

    @Test
    void aWriteThatChangedNothingAnswersTheCachedVersionAndIsNotWaitedFor() {
        OwnWrites cached = new OwnWrites(new WatchedKinds(List.of(new WatchedKinds.Kind(
                ResourceType.of(V1ConfigMap.class), key -> key.equals(KEY) ? "7" : null))));
        String before = cached.cachedVersion(answer("7"));
        cached.begin(KEY);
        cached.end(KEY, answer("7"), null, before); // an apply that changed nothing: the stored version

        assertThat(before).isEqualTo("7");
        assertThat(cached.awaitSeen(KEY, () -> { })).isFalse();
        cached.begin(KEY);
        cached.end(KEY, answer("8"), null, before);
        assertThat(cached.awaitSeen(KEY, () -> { })).as("a version the cache did not hold").isTrue();
    }

    @Test
    void aWriteWhoseEventReachedTheCacheButNotYetItsHandlerIsLetGoWhenItArrives() {
        AtomicReference<String> cache = new AtomicReference<>("6");
        OwnWrites racing = new OwnWrites(new WatchedKinds(List.of(new WatchedKinds.Kind(
                ResourceType.of(V1ConfigMap.class), key -> key.equals(KEY) ? cache.get() : null))));
        String before = racing.cachedVersion(answer("6"));
        racing.begin(KEY);
        cache.set("7"); // the watcher stored the write's event; its handler has not run yet
        racing.end(KEY, answer("7"), null, before);

        assertThat(racing.handled(KEY, "uid-p", "7", () -> queued.add("7"))).as("our write coming back").isTrue();
        assertThat(queued).isEmpty();
        assertThat(racing.awaitSeen(KEY, () -> { })).as("delivered by that event").isFalse();
    }

    @Test
    void anEventATriggerFilterLetsPassStillCountsAsDelivered() {
        List<String> woken = new ArrayList<>();
        write(KEY, answer("7"));
        writes.awaitSeen(KEY, () -> woken.add("p"));
        writes.seen("uid-p", "7");
        assertThat(woken).containsExactly("p");
    }

    @Test
    void aKeyThatGivesUpForgetsItsVersionsSoTheirEventsQueueAsAnyChange() {
        List<String> woken = new ArrayList<>();
        write(KEY, answer("7"));
        writes.awaitSeen(KEY, () -> woken.add("p"));
        writes.giveUp(KEY);

        assertThat(writes.waitingCount()).isZero();
        assertThat(event("7")).as("no longer let go").isFalse();
        assertThat(woken).isEmpty();
        assertThat(writes.awaitSeen(KEY, () -> { })).isFalse();
    }

    @Test
    void aContextOutsideAReconcilerKeepsNothing() {
        OwnWrites none = new OwnWrites();
        none.begin(KEY);
        none.end(KEY, answer("7"), null, null);
        assertThat(none.awaitSeen(KEY, () -> { })).isFalse();
        assertThat(none.handled(KEY, "uid-p", "7", () -> { })).isFalse();
    }

    private void write(ObjectKey key, V1ConfigMap answer) {
        writes.begin(key);
        writes.end(key, answer, null, null);
    }

    private boolean event(String version) {
        return writes.handled(KEY, "uid-p", version, () -> queued.add(version));
    }

    private static V1ConfigMap answer(String version) {
        return configMap("p", "uid-p", version);
    }

    private static V1ConfigMap configMap(String name, String uid, String version) {
        return new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                .metadata(new V1ObjectMeta().namespace("ns").name(name).uid(uid).resourceVersion(version));
    }

    private static V1Secret secret(String name, String uid, String version) {
        return new V1Secret().apiVersion("v1").kind("Secret")
                .metadata(new V1ObjectMeta().namespace("ns").name(name).uid(uid).resourceVersion(version));
    }
}
