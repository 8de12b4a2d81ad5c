package dev.watchkeeper.test;

import static dev.watchkeeper.test.stub.Replies.cm;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.watchkeeper.watch.ErrorKind;
import dev.watchkeeper.watch.WatchError;
import dev.watchkeeper.watch.WatchEvent;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Events become the strings of docs/semantics.md §1; waiting works across threads. */
class EventRecorderTest {

    private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");

    private final EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();

    @Test
    void recordsEveryEventKindAsItsString() {
        recorder.onEvent(new WatchEvent.Init<>());
        recorder.onEvent(new WatchEvent.InitApply<>(cm("a")));
        recorder.onEvent(new WatchEvent.InitDone<>());
        recorder.onEvent(new WatchEvent.Apply<>(cm("b")));
        recorder.onEvent(new WatchEvent.Delete<>(cm("a")));
        recorder.onEvent(failure(ErrorKind.WATCH_ERROR, 410, "too old resource version: 1 (2)"));
        recorder.onEvent(failure(ErrorKind.WATCH_FAILED, 0, "stream reset"));

        assertThat(recorder.events()).containsExactly("Init", "InitApply(a)", "InitDone", "Apply(b)", "Delete(a)",
                "Error(WatchError 410)", "Error(WatchFailed)");
        assertThat(recorder.errors()).extracting(WatchError::message)
                .containsExactly("too old resource version: 1 (2)", "stream reset");
        assertThat(recorder.rawEvents()).hasSize(7).first().isInstanceOf(WatchEvent.Init.class);
    }

    @Test
    void namesObjectsWithTheirNamespaceWhenSpanningNamespaces() {
        EventRecorder<V1ConfigMap> spanning = new EventRecorder<>(true);

        spanning.onEvent(new WatchEvent.Apply<>(cm("a")));

        assertThat(spanning.events()).containsExactly("Apply(default/a)");
    }

    @Test
    void awaitEventsReturnsTheFirstNOnceTheyArrive() {
        CompletableFuture.runAsync(() -> {
            recorder.onEvent(new WatchEvent.Init<>());
            recorder.onEvent(new WatchEvent.InitDone<>());
            recorder.onEvent(new WatchEvent.Apply<>(cm("x")));
        });

        assertThat(recorder.awaitEvents(2, Duration.ofSeconds(5))).containsExactly("Init", "InitDone");
        assertThat(recorder.awaitEvent("Apply(x)", Duration.ofSeconds(5))).contains("Apply(x)");
    }

    @Test
    void awaitFailsWithWhatArrived() {
        recorder.onEvent(new WatchEvent.Init<>());

        assertThatThrownBy(() -> recorder.awaitEvents(2, Duration.ofMillis(20)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("[Init]");
        assertThatThrownBy(() -> recorder.awaitEvent("InitDone", Duration.ofMillis(20)))
                .isInstanceOf(AssertionError.class).hasMessageContaining("expected InitDone");
    }

    @Test
    void clearForgetsEverything() {
        recorder.onEvent(failure(ErrorKind.DECODE_FAILED, 0, "default/bad rv 9"));

        recorder.clear();

        assertThat(recorder.events()).isEmpty();
        assertThat(recorder.errors()).isEmpty();
        assertThat(recorder.rawEvents()).isEmpty();
    }

    private static WatchEvent<V1ConfigMap> failure(ErrorKind kind, int code, String message) {
        return new WatchEvent.Failure<>(new WatchError(kind, code, message, AT));
    }
}
