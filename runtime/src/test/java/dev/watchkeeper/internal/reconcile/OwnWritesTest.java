package dev.watchkeeper.internal.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OwnWritesTest {

    private static final ObjectKey KEY = new ObjectKey("ns", "p");

    private final OwnWrites writes = new OwnWrites();
    private final List<String> queued = new ArrayList<>();

    @Test
    void theEventOfAWriteIsLetGoOnceAndAnyOtherVersionQueues() {
        writes.begin(KEY);
        writes.end(KEY, answer("7"));

        assertThat(event("7")).as("our write coming back").isTrue();
        assertThat(event("7")).as("only once").isFalse();
        assertThat(event("8")).as("someone else's change").isFalse();
        assertThat(queued).isEmpty();
    }

    @Test
    void anEventThatOutrunsTheAnswerOfItsWriteIsHeldAndThenLetGo() {
        writes.begin(KEY);
        assertThat(event("7")).as("held while the write is in flight").isTrue();
        writes.end(KEY, answer("7"));

        assertThat(queued).isEmpty();
        assertThat(event("7")).as("nothing left recorded for a version that already came back").isFalse();
    }

    @Test
    void eventsHeldDuringAWriteOfAnotherVersionOrAFailedWriteAreQueuedWhenItEnds() {
        writes.begin(KEY);
        event("6");
        writes.end(KEY, answer("7"));
        assertThat(queued).containsExactly("6");

        writes.begin(KEY);
        event("8");
        writes.end(KEY, null);
        assertThat(queued).containsExactly("6", "8");
    }

    @Test
    void heldEventsWaitForTheLastOfOverlappingWrites() {
        writes.begin(KEY);
        writes.begin(KEY);
        event("5");
        writes.end(KEY, answer("6"));
        assertThat(queued).isEmpty();
        writes.end(KEY, answer("7"));
        assertThat(queued).containsExactly("5");
        assertThat(event("6")).as("only the latest write of an object is remembered: an earlier one queues").isFalse();
        assertThat(event("7")).isTrue();
    }

    @Test
    void aDeletedObjectForgetsItsWrite() {
        writes.begin(KEY);
        writes.end(KEY, answer("7"));
        writes.forget("uid-p");
        assertThat(event("7")).isFalse();
    }

    private boolean event(String version) {
        return writes.handled(KEY, "uid-p", version, () -> queued.add(version));
    }

    private static V1ConfigMap answer(String version) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ns").name("p").uid("uid-p")
                .resourceVersion(version));
    }
}
