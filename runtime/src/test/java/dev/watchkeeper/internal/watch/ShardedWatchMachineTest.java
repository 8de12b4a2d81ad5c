package dev.watchkeeper.internal.watch;

import static dev.watchkeeper.internal.watch.ScriptedWatchApi.added;
import static dev.watchkeeper.internal.watch.ScriptedWatchApi.cm;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatcherSnapshot.Shard.Mode;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The requests of a sharded {@link WatchMachine} and what it learns from their answers, one step at a time. */
class ShardedWatchMachineTest {

    private static final Slots LOWER_HALF = Slots.of(IntStream.range(0, 64).toArray());
    private static final String LOWER_HALF_SELECTOR =
            "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')";

    private final ScriptedWatchApi api = new ScriptedWatchApi();
    private final ManualTime time = new ManualTime();
    private WatchState<V1ConfigMap> state = new WatchState.Empty<>();

    @Test
    void byObjectUidSendsTheSelectorOfItsSlotsOnEveryPageAndOnTheWatch() {
        api.shardedPage(LOWER_HALF_SELECTOR, "c1", null, cm("a", "1"))
                .shardedPage(LOWER_HALF_SELECTOR, null, "3", cm("b", "2")).stream(added("c", "4"));
        WatchMachine<V1ConfigMap> machine = machine(ShardFilter.BY_OBJECT_UID, InitialListStrategy.LIST_WATCH);
        machine.reshard(LOWER_HALF);

        List<String> events = run(machine, 5);

        assertThat(events).containsExactly("Init", "InitApply", "InitApply", "InitDone", "Apply");
        assertThat(api.calls).containsExactly("list  shardSelector=" + LOWER_HALF_SELECTOR,
                "list c1 shardSelector=" + LOWER_HALF_SELECTOR, "watch 3 shardSelector=" + LOWER_HALF_SELECTOR);
    }

    @Test
    void theModeIsServerWhenTheLastListCarriedShardInfoAndClientWhenNot() {
        api.shardedPage(LOWER_HALF_SELECTOR, null, "3").stream(new WireEvent.ErrorStatus<>(410, "Expired", ""))
                .page(null, "5");
        WatchMachine<V1ConfigMap> machine = machine(ShardFilter.BY_OBJECT_UID, InitialListStrategy.LIST_WATCH);
        machine.reshard(LOWER_HALF);
        assertThat(machine.listedMode()).as("before any list").isEqualTo(Mode.UNKNOWN);

        run(machine, 2);
        assertThat(machine.listedMode()).isEqualTo(Mode.SERVER);

        run(machine, 4);
        assertThat(machine.listedMode()).as("a relist from a server that ignored the selector").isEqualTo(Mode.CLIENT);
    }

    @Test
    void aStreamingListIsPrecededByOneListWithTheSelectorWhoseAnswerSaysWhetherTheServerApplied() {
        api.shardedPage(LOWER_HALF_SELECTOR, null, "1").stream(added("a", "1"), new WireEvent.Bookmark<>("2", true));
        WatchMachine<V1ConfigMap> machine = machine(ShardFilter.BY_OBJECT_UID, InitialListStrategy.STREAMING);
        machine.reshard(LOWER_HALF);

        assertThat(run(machine, 4)).as("the probe's answer is not delivered")
                .containsExactly("Init", "InitApply", "InitDone");
        assertThat(api.calls).containsExactly("list  shardSelector=" + LOWER_HALF_SELECTOR,
                "watch null initial shardSelector=" + LOWER_HALF_SELECTOR);
        assertThat(machine.listedMode()).isEqualTo(Mode.SERVER);
    }

    @Test
    void theProbeRunsOncePerShareAndSaysClientWhenTheServerIgnoredTheSelector() {
        api.page(null, "1").stream(new WireEvent.Bookmark<>("2", true), new WireEvent.ErrorStatus<>(410, "Expired", ""))
                .stream(new WireEvent.Bookmark<>("3", true));
        WatchMachine<V1ConfigMap> machine = machine(ShardFilter.BY_OBJECT_UID, InitialListStrategy.STREAMING);
        machine.reshard(LOWER_HALF);

        run(machine, 6);

        assertThat(api.calls).as("the streaming list after the 410 asks nothing again").containsExactly(
                "list  shardSelector=" + LOWER_HALF_SELECTOR, "watch null initial shardSelector=" + LOWER_HALF_SELECTOR,
                "watch null initial shardSelector=" + LOWER_HALF_SELECTOR);
        assertThat(machine.listedMode()).isEqualTo(Mode.CLIENT);
    }

    @Test
    void aFailedProbeLeavesTheModeUnknownAndTheStreamingListGoesOn() {
        api.fail(500).stream(added("a", "1"), new WireEvent.Bookmark<>("2", true));
        WatchMachine<V1ConfigMap> machine = machine(ShardFilter.BY_OBJECT_UID, InitialListStrategy.STREAMING);
        machine.reshard(LOWER_HALF);

        assertThat(run(machine, 4)).containsExactly("Init", "InitApply", "InitDone");
        assertThat(machine.listedMode()).isEqualTo(Mode.UNKNOWN);
    }

    @Test
    void byControllerOwnerSendsNoSelectorAndTheServerNeverFilters() {
        api.page(null, "3").stream();
        WatchMachine<V1ConfigMap> machine = machine(ShardFilter.BY_CONTROLLER_OWNER_UID,
                InitialListStrategy.LIST_WATCH);
        machine.reshard(LOWER_HALF);

        run(machine, 3);

        assertThat(api.calls).containsExactly("list ", "watch 3");
        assertThat(machine.listedMode()).isEqualTo(Mode.CLIENT);
    }

    @Test
    void withoutSlotsItListsNothingWithoutARequestAndThenStaysIdle() {
        WatchMachine<V1ConfigMap> machine = machine(ShardFilter.BY_OBJECT_UID, InitialListStrategy.LIST_WATCH);
        machine.reshard(Slots.none());

        Step<V1ConfigMap> step = machine.step(new WatchState.Empty<>());
        Step<V1ConfigMap> idle = machine.step(step.next());

        assertThat(step.events()).extracting(e -> e.getClass().getSimpleName()).containsExactly("Init", "InitDone");
        assertThat(step.next()).isEqualTo(new WatchState.Idle<V1ConfigMap>());
        assertThat(idle.events()).isEmpty();
        assertThat(idle.next()).isEqualTo(new WatchState.Idle<V1ConfigMap>());
        assertThat(api.calls).isEmpty();
    }

    @Test
    void aShardedMachineDoesNotListBeforeItWasGivenSlots() {
        WatchMachine<V1ConfigMap> machine = machine(ShardFilter.BY_OBJECT_UID, InitialListStrategy.LIST_WATCH);

        assertThatThrownBy(() -> machine.step(new WatchState.Empty<>())).isInstanceOf(IllegalStateException.class);
        assertThat(api.calls).isEmpty();
    }

    @Test
    void anUnshardedMachineSendsNoSelector() {
        api.page(null, "3").stream();
        WatchMachine<V1ConfigMap> machine = new WatchMachine<>(api,
                WatchOptions.defaults().withInitialList(InitialListStrategy.LIST_WATCH), time.clock());

        run(machine, 3);

        assertThat(api.calls).containsExactly("list ", "watch 3");
        assertThatThrownBy(() -> machine.reshard(LOWER_HALF)).isInstanceOf(IllegalStateException.class);
    }

    private WatchMachine<V1ConfigMap> machine(ShardFilter filter, InitialListStrategy strategy) {
        return new WatchMachine<>(api, WatchOptions.defaults().withInitialList(strategy), time.clock(), filter);
    }

    /** Takes {@code steps} steps from where the last run ended. */
    private List<String> run(WatchMachine<V1ConfigMap> machine, int steps) {
        List<String> events = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            Step<V1ConfigMap> step = machine.step(state);
            for (WatchEvent<V1ConfigMap> event : step.events()) {
                events.add(event.getClass().getSimpleName());
            }
            state = step.next();
        }
        return events;
    }
}
