package dev.watchkeeper.internal.watch;

import dev.watchkeeper.watch.ErrorKind;
import dev.watchkeeper.watch.WatchEvent;
import static dev.watchkeeper.internal.watch.ScriptedWatchApi.added;
import static dev.watchkeeper.internal.watch.ScriptedWatchApi.cm;
import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.reconcile.ManualTime;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Transitions of the pure state machine, one step at a time, without threads or HTTP. */
class WatchMachineTest {

    private final ScriptedWatchApi api = new ScriptedWatchApi();
    private final ManualTime time = new ManualTime();
    private final List<String> outcomes = new ArrayList<>();

    @Test
    void paginatesTheInitialListBeforeWatching() {
        api.page("c1", null, cm("a", "1")).page(null, "3", cm("b", "2")).stream(added("c", "4"));

        List<String> events = run(machine(InitialListStrategy.LIST_WATCH), 5);

        assertThat(events).containsExactly("Init", "InitApply(a)", "InitApply(b)", "InitDone", "Apply(c)");
        assertThat(api.calls).containsExactly("list ", "list c1", "watch 3");
    }

    @Test
    void watchStartGoneRelistsAtOnceButASecondGoneWithoutEventsBacksOff() {
        api.page(null, "3").fail(410).page(null, "4").fail(410);

        run(machine(InitialListStrategy.LIST_WATCH), 6);

        assertThat(outcomes).containsExactly("CONTINUE", "PROGRESS", "CONTINUE", "CONTINUE", "PROGRESS", "BACK_OFF");
    }

    @Test
    void aWatchThatEndsAtOnceWithoutEventsBacksOffButANormalTimeoutRewatchesAtOnce() {
        api.page(null, "3").stream().stream(added("a", "5"));
        WatchMachine<V1ConfigMap> machine = machine(InitialListStrategy.LIST_WATCH);
        WatchState<V1ConfigMap> state = new WatchState.Empty<>();
        for (int i = 0; i < 3; i++) {
            state = machine.step(state).next();
        }
        Step<V1ConfigMap> shortWatch = machine.step(state);
        assertThat(shortWatch.outcome()).isEqualTo(Step.Outcome.BACK_OFF);
        assertThat(shortWatch.error().message()).contains("ended after 0ms without any event");
        assertThat(shortWatch.next()).isEqualTo(new WatchState.InitListed<V1ConfigMap>("3"));

        state = machine.step(shortWatch.next()).next();
        assertThat(machine.step(state).events()).hasSize(1);
    }

    @Test
    void aBrokenStreamResumesFromTheLastVersionWithoutRelisting() {
        api.page(null, "3").stream(added("a", "7"), new IOException("connection reset"));

        WatchMachine<V1ConfigMap> machine = machine(InitialListStrategy.LIST_WATCH);
        WatchState<V1ConfigMap> state = new WatchState.Empty<>();
        Step<V1ConfigMap> step = null;
        for (int i = 0; i < 5; i++) {
            step = machine.step(state);
            state = step.next();
        }

        assertThat(step.outcome()).isEqualTo(Step.Outcome.BACK_OFF);
        assertThat(step.error().kind()).isEqualTo(ErrorKind.WATCH_FAILED);
        assertThat(step.error().message()).contains("connection reset");
        assertThat(state).isEqualTo(new WatchState.InitListed<V1ConfigMap>("7"));
    }

    @Test
    void streamingEmitsInitAndEndsTheInitialPhaseAtTheBookmark() {
        api.stream(added("a", "1"), new WireEvent.Bookmark<>("2", true), added("b", "3"));

        List<String> events = run(machine(InitialListStrategy.STREAMING), 5);

        assertThat(events).containsExactly("Init", "InitApply(a)", "InitDone", "Apply(b)");
        assertThat(api.calls).containsExactly("watch null initial");
    }

    @Test
    void autoFallsBackToListWatchWhenTheServerRejectsStreaming() {
        api.fail(400).page(null, "3");
        WatchMachine<V1ConfigMap> machine = machine(InitialListStrategy.AUTO);

        List<String> events = run(machine, 4);

        assertThat(events).containsExactly("Init", "Error(WatchStartFailed 400)", "Init", "InitDone");
        assertThat(outcomes).doesNotContain("BACK_OFF");
        assertThat(machine.isStreaming()).isFalse();
    }

    @Test
    void autoFallsBackAfterThreeStreamingListsFailInARowAndACompletedOneStartsTheCountOver() {
        api.fail(503).fail(503)
                .stream(added("a", "1"), new WireEvent.Bookmark<>("2", true),
                        new WireEvent.ErrorStatus<>(410, "Expired", ""))
                .fail(503).fail(503)
                .stream(new WireEvent.ErrorStatus<>(500, "InternalError", "etcd"));
        WatchMachine<V1ConfigMap> machine = machine(InitialListStrategy.AUTO);

        List<String> events = run(machine, 17);

        assertThat(events).containsExactly("Init", "Error(WatchStartFailed 503)", "Init", "Error(WatchStartFailed 503)",
                "Init", "InitApply(a)", "InitDone", "Error(WatchError 410)",
                "Init", "Error(WatchStartFailed 503)", "Init", "Error(WatchStartFailed 503)",
                "Init", "Error(WatchError 500)", "Init");
        assertThat(outcomes.subList(13, 17)).containsExactly("CONTINUE", "CONTINUE", "BACK_OFF", "CONTINUE");
        assertThat(machine.isStreaming()).isFalse();
        assertThat(api.calls).hasSize(6).containsOnly("watch null initial");
    }

    @Test
    void autoKeepsStreamingThroughThrottlingAndRefusedConnections() {
        ApiFailure refused = new ApiFailure(0, "connection refused", null, new ConnectException("refused"));
        api.fail(429).fail(refused).fail(429).fail(refused).fail(503);
        WatchMachine<V1ConfigMap> machine = machine(InitialListStrategy.AUTO);

        List<String> events = run(machine, 10);

        assertThat(events).containsExactly("Init", "Error(WatchStartFailed 429)", "Init", "Error(WatchStartFailed)",
                "Init", "Error(WatchStartFailed 429)", "Init", "Error(WatchStartFailed)", "Init",
                "Error(WatchStartFailed 503)");
        assertThat(outcomes).filteredOn("BACK_OFF"::equals).hasSize(5);
        assertThat(machine.isStreaming()).isTrue();
    }

    @Test
    void autoFallsBackWhenTheInitialEventsDoNotEndInTime() {
        api.stream(added("a", "1"), new IOException("deadline reached")).page(null, "3");
        WatchMachine<V1ConfigMap> machine = new WatchMachine<>(api, WatchOptions.defaults()
                .withInitialList(InitialListStrategy.AUTO).withAutoFallbackAfter(Duration.ofSeconds(3)), time.clock());
        WatchState<V1ConfigMap> state = machine.step(new WatchState.Empty<>()).next();
        state = machine.step(state).next(); // opens the streaming watch
        state = machine.step(state).next(); // InitApply(a)
        time.advance(Duration.ofSeconds(3));

        Step<V1ConfigMap> fallback = machine.step(state);

        assertThat(fallback.outcome()).isEqualTo(Step.Outcome.CONTINUE);
        assertThat(fallback.events()).extracting(WatchMachineTest::describe).containsExactly("Error(WatchStartFailed)");
        assertThat(machine.isStreaming()).isFalse();
        assertThat(machine.step(fallback.next()).next())
                .isEqualTo(new WatchState.InitPage<V1ConfigMap>(ListRequest.consistent()));
    }

    @Test
    void aPageWithoutResourceVersionOrContinueTokenIsAnError() {
        api.page(null, null, cm("a", "1"));

        List<String> events = run(machine(InitialListStrategy.LIST_WATCH), 2);

        assertThat(events).containsExactly("Init", "InitApply(a)", "Error(NoResourceVersion)");
        assertThat(outcomes).last().isEqualTo("BACK_OFF");
    }

    @Test
    void anExpiredContinueTokenRelistsFromPageOneAtOnce() {
        api.page("c1", null, cm("a", "1")).fail(410).page(null, "5");

        List<String> events = run(machine(InitialListStrategy.LIST_WATCH), 5);

        assertThat(events).containsExactly("Init", "InitApply(a)", "Error(InitialListFailed 410)", "Init",
                "InitDone");
        assertThat(api.calls).containsExactly("list ", "list c1", "list ");
    }

    // ---- CACHED list semantics (client-go's reflector)

    @Test
    void cachedListsAnyVersionFirstThenRelistsAfterA410AtTheLastSyncedVersionUnpaged() {
        api.page(null, "3", cm("a", "2")).stream(added("b", "5"), new WireEvent.Bookmark<>("6", false),
                new WireEvent.ErrorStatus<>(410, "Expired", "too old resource version: 6 (9)")).page(null, "9");

        List<String> events = run(cached(), 8);

        assertThat(events).containsExactly("Init", "InitApply(a)", "InitDone", "Apply(b)", "Error(WatchError 410)",
                "Init", "InitDone");
        assertThat(api.calls).containsExactly("list rv=0", "watch 3", "list rv=6 unpaged");
    }

    @Test
    void cachedFallsBackToAConsistentPagedListAtOnceWhenTheVersionIsExpiredOrTooLarge() {
        ApiFailure tooLarge = new ApiFailure(504, "Too large resource version: 12, current: 9", null, null, true);
        api.page(null, "3").stream(new WireEvent.ErrorStatus<>(410, "Expired", ""))
                .fail(410).page("c1", null, cm("a", "7")).page(null, "8")
                .stream(added("b", "9"), new WireEvent.ErrorStatus<>(410, "Expired", ""))
                .fail(tooLarge).page(null, "10")
                .stream(added("c", "11"), new WireEvent.ErrorStatus<>(410, "Expired", ""));
        WatchMachine<V1ConfigMap> machine = cached();

        List<String> events = run(machine, 17);

        assertThat(api.calls).containsExactly("list rv=0", "watch 3", "list rv=3 unpaged", "list ", "list c1",
                "watch 8", "list rv=9 unpaged", "list ", "watch 10");
        assertThat(events).containsExactly("Init", "InitDone", "Error(WatchError 410)", "Init",
                "Error(InitialListFailed 410)", "InitApply(a)", "InitDone", "Apply(b)", "Error(WatchError 410)",
                "Init", "Error(InitialListFailed 504)", "InitDone", "Apply(c)", "Error(WatchError 410)");
        assertThat(outcomes).as("a refused version is no reason to wait").doesNotContain("BACK_OFF");
        assertThat(machine.step(new WatchState.Empty<>()).next()).as("a list succeeded since: cached again")
                .isEqualTo(new WatchState.InitPage<V1ConfigMap>(ListRequest.notOlderThan("11", false)));
    }

    @Test
    void cachedKeepsBackingOffAtTheSameVersionOnOtherFailures() {
        api.page(null, "3").stream(new WireEvent.ErrorStatus<>(410, "Expired", "")).fail(500).fail(403);

        run(cached(), 8);

        assertThat(api.calls).containsExactly("list rv=0", "watch 3", "list rv=3 unpaged", "list rv=3 unpaged");
        assertThat(outcomes).endsWith("BACK_OFF", "CONTINUE", "BACK_OFF");
    }

    @Test
    void cachedPagesItsRelistsWhenTheServerPagedAListAtAnyVersion() {
        api.page("c1", null, cm("a", "2")).page(null, "4", cm("b", "3"))
                .stream(new WireEvent.ErrorStatus<>(410, "Expired", "")).page(null, "7");

        run(cached(), 7);

        assertThat(api.calls).containsExactly("list rv=0", "list c1", "watch 4", "list rv=4");
    }

    @Test
    void consistentListsNeverNameAVersion() {
        api.page(null, "3").stream(new WireEvent.ErrorStatus<>(410, "Expired", "")).page(null, "5");

        run(machine(InitialListStrategy.LIST_WATCH), 6);

        assertThat(api.calls).containsExactly("list ", "watch 3", "list ");
    }

    private WatchMachine<V1ConfigMap> cached() {
        return new WatchMachine<>(api, WatchOptions.defaults().withListSemantics(ListSemantics.CACHED), time.clock());
    }

    private WatchMachine<V1ConfigMap> machine(InitialListStrategy strategy) {
        return new WatchMachine<>(api, WatchOptions.defaults().withInitialList(strategy), time.clock());
    }

    private List<String> run(WatchMachine<V1ConfigMap> machine, int steps) {
        List<String> events = new ArrayList<>();
        WatchState<V1ConfigMap> state = new WatchState.Empty<>();
        for (int i = 0; i < steps; i++) {
            Step<V1ConfigMap> step = machine.step(state);
            outcomes.add(step.outcome().name());
            step.events().forEach(e -> events.add(describe(e)));
            state = step.next();
        }
        return events;
    }

    private static String describe(WatchEvent<V1ConfigMap> event) {
        if (event instanceof WatchEvent.InitApply<V1ConfigMap> e) {
            return "InitApply(" + e.object().getMetadata().getName() + ")";
        }
        if (event instanceof WatchEvent.Apply<V1ConfigMap> e) {
            return "Apply(" + e.object().getMetadata().getName() + ")";
        }
        if (event instanceof WatchEvent.Delete<V1ConfigMap> e) {
            return "Delete(" + e.object().getMetadata().getName() + ")";
        }
        if (event instanceof WatchEvent.Failure<V1ConfigMap> e) {
            return e.error().label();
        }
        return event.getClass().getSimpleName();
    }
}
