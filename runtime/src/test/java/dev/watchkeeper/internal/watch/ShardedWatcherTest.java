package dev.watchkeeper.internal.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.shard.ShardSelector;
import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.internal.shard.UidHash;
import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.internal.resource.ResolvedResource;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatcherPhase;
import dev.watchkeeper.watch.WatcherSnapshot;
import dev.watchkeeper.watch.WatcherSnapshot.Shard.Mode;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * A sharded {@link Watcher} on its own thread against a scripted server: it holds exactly the objects of its slots
 * whether or not the server filters, starts over on {@link Watcher#reshard} without a failure, and holds nothing
 * without slots.
 */
class ShardedWatcherTest {

    private static final Slots X = Slots.of(IntStream.range(0, 64).toArray());
    private static final Slots Y = Slots.of(IntStream.range(32, 96).toArray());
    private static final WatchOptions LIST_WATCH = WatchOptions.defaults().withInitialList(InitialListStrategy.LIST_WATCH);

    private final ShardServer server = new ShardServer();
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final Logger watcherLog = (Logger) LoggerFactory.getLogger(Watcher.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private Watcher<V1ConfigMap> watcher;
    private Thread thread;

    @BeforeEach
    void objects() {
        for (int i = 0; i < 40; i++) {
            server.put(object("cm-" + i, null));
        }
        logged.start();
        watcherLog.addAppender(logged);
    }

    @AfterEach
    void close() {
        if (watcher != null) {
            watcher.close();
        }
        watcherLog.detachAppender(logged);
    }

    @ParameterizedTest(name = "server filters: {0}")
    @ValueSource(booleans = {true, false})
    void holdsExactlyItsShareAndAfterAReshardExactlyTheNewOne(boolean serverFilters) {
        server.honoursSelectors = serverFilters;
        start(ShardFilter.BY_OBJECT_UID, new ManualTime());
        awaitWaiting();
        assertThat(server.requests).as("no request before the first assignment").isEmpty();
        assertThat(watcher.snapshot().shard()).isEqualTo(new WatcherSnapshot.Shard(
                WatcherSnapshot.Shard.By.OBJECT_UID, null, Mode.UNKNOWN));

        watcher.reshard(X);
        awaitEvents("InitDone", 1);
        assertThat(names(watcher)).isEqualTo(server.namesIn(X));
        // the snapshot is published after the transition that delivered InitDone
        await().untilAsserted(() -> assertThat(watcher.snapshot().shard()).isEqualTo(new WatcherSnapshot.Shard(
                WatcherSnapshot.Shard.By.OBJECT_UID, "[0-63]", serverFilters ? Mode.SERVER : Mode.CLIENT,
                serverFilters ? 0 : server.objects.size() - server.namesIn(X).size())));

        Set<String> kept = intersection(server.namesIn(X), server.namesIn(Y));
        String keptName = kept.iterator().next();
        await().until(() -> server.requests.size() == 2);
        V1ConfigMap keptBefore = watcher.store().get("default", keptName).orElseThrow();
        server.put(object(keptName, null));
        events.clear();
        watcher.reshard(Y);
        awaitEvents("InitDone", 1);
        await().until(() -> server.requests.size() == 4);

        assertThat(names(watcher)).isEqualTo(server.namesIn(Y));
        V1ConfigMap keptAfter = watcher.store().get("default", keptName).orElseThrow();
        assertThat(keptAfter).as("replaced in place by the relist").isNotSameAs(keptBefore);
        assertThat(keptAfter.getMetadata().getResourceVersion()).isEqualTo(server.version(keptName));
        Set<String> swept = new TreeSet<>(server.namesIn(X));
        swept.removeAll(server.namesIn(Y));
        assertThat(swept).isNotEmpty();
        List<String> expected = new ArrayList<>();
        expected.add("Init");
        server.namesIn(Y).forEach(name -> expected.add("InitApply(" + name + ")"));
        swept.forEach(name -> expected.add("Delete?(" + name + ")"));
        expected.add("InitDone");
        assertThat(events).containsExactlyInAnyOrderElementsOf(expected).startsWith("Init").endsWith("InitDone");
        assertThat(server.requests).containsExactly("list " + X.ranges().orElseThrow().selector(),
                "watch " + X.ranges().orElseThrow().selector(), "list " + Y.ranges().orElseThrow().selector(),
                "watch " + Y.ranges().orElseThrow().selector());
        assertThat(watcher.snapshot().counts().errors()).as("a reshard is no failure").isZero();
        assertThat(watcher.snapshot().consecutiveFailures()).isZero();
        assertThat(lines()).containsExactly("INFO watcher cms reshards: slots none yet -> [0-63]",
                "INFO watcher cms reshards: slots [0-63] -> [32-95]");
    }

    @Test
    void dropsWatchEventsOfObjectsOutsideItsShareWhenTheServerDoesNot() {
        start(ShardFilter.BY_OBJECT_UID, new ManualTime());
        watcher.reshard(X);
        awaitEvents("InitDone", 1);
        await().until(() -> server.requests.size() == 2);
        String inside = firstName("new", X, true);
        String outside = firstName("new", X, false);
        events.clear();

        server.send(WireEvent.ChangeType.ADDED, object(outside, null));
        server.send(WireEvent.ChangeType.ADDED, object(inside, null));
        server.send(WireEvent.ChangeType.DELETED, object(outside, null));
        server.send(WireEvent.ChangeType.MODIFIED, object(inside, null));
        awaitEvents("Apply(" + inside + ")", 2);

        assertThat(events).containsExactly("Apply(" + inside + ")", "Apply(" + inside + ")");
        assertThat(watcher.store().get("default", outside)).isEmpty();
        assertThat(watcher.snapshot().shard().mode()).isEqualTo(Mode.CLIENT);
    }

    @Test
    void withoutSlotsItEmptiesItsStoreAndMakesNoRequestUntilGivenSomeAgain() {
        start(ShardFilter.BY_OBJECT_UID, new ManualTime());
        watcher.reshard(X);
        awaitEvents("InitDone", 1);
        await().until(() -> server.requests.size() == 2);
        events.clear();

        watcher.reshard(Slots.none());
        awaitEvents("InitDone", 1);
        awaitWaiting();

        assertThat(watcher.store().size()).isZero();
        assertThat(events).hasSize(server.namesIn(X).size() + 2).startsWith("Init").endsWith("InitDone");
        assertThat(server.requests).hasSize(2);
        assertThat(watcher.snapshot().phase()).isEqualTo(WatcherPhase.WATCHING);
        assertThat(watcher.snapshot().synced()).isTrue();
        assertThat(watcher.snapshot().shard().slots()).isEqualTo("[]");

        watcher.reshard(X);
        await().until(() -> names(watcher).equals(server.namesIn(X)) && server.requests.size() == 4);
        assertThat(server.requests.subList(2, 4)).containsExactly("list " + X.ranges().orElseThrow().selector(),
                "watch " + X.ranges().orElseThrow().selector());
    }

    @Test
    void aReshardEndsABackoffWaitAtOnce() {
        server.failNextList = true;
        start(ShardFilter.BY_OBJECT_UID, new BlockingTime());
        watcher.reshard(X);
        await().until(() -> watcher.snapshot().phase() == WatcherPhase.BACKING_OFF);

        watcher.reshard(Y);

        awaitEvents("InitDone", 1);
        assertThat(names(watcher)).isEqualTo(server.namesIn(Y));
    }

    @Test
    void byControllerOwnerHoldsTheObjectsWhoseControllerIsInItsShare() {
        server.objects.clear();
        String ownerInside = uidIn(X, true);
        String ownerOutside = uidIn(X, false);
        server.put(object("owned-in", owner(ownerInside, true)));
        server.put(object("owned-out", owner(ownerOutside, true)));
        server.put(object("not-controller", owner(ownerInside, false)));
        server.put(object("no-owner", null));
        start(ShardFilter.BY_CONTROLLER_OWNER_UID, new ManualTime());
        watcher.reshard(X);
        awaitEvents("InitDone", 1);
        assertThat(names(watcher)).containsExactly("owned-in");
        assertThat(server.requests.get(0)).as("no selector can ask for an owner").isEqualTo("list null");
        await().untilAsserted(() -> assertThat(watcher.snapshot().shard()).isEqualTo(new WatcherSnapshot.Shard(
                WatcherSnapshot.Shard.By.CONTROLLER_OWNER_UID, "[0-63]", Mode.CLIENT, 3)));
        await().until(() -> server.requests.size() == 2);
        events.clear();

        server.send(WireEvent.ChangeType.MODIFIED, object("owned-in", owner(ownerOutside, true)));
        server.send(WireEvent.ChangeType.MODIFIED, object("owned-out", owner(ownerInside, true)));
        awaitEvents("Apply(owned-out)", 1);

        assertThat(events).as("leaving the share is a delete of the state held").containsExactly(
                "Delete(owned-in)", "Apply(owned-out)");
        assertThat(names(watcher)).containsExactly("owned-out");
    }

    @Test
    void anUnshardedWatcherCannotBeResharded() {
        watcher = Watcher.builder(server, ResourceType.of(V1ConfigMap.class)).name("cms").build();

        assertThatThrownBy(() -> watcher.reshard(X)).isInstanceOf(IllegalStateException.class)
                .hasMessage("watcher cms is not sharded");
    }

    private void start(ShardFilter filter, TimeSource time) {
        watcher = Watcher.builder(server, ResourceType.of(V1ConfigMap.class)).name("cms").options(LIST_WATCH)
                .shardFilter(filter).timeSource(time).threadFactory(runnable -> thread = new Thread(runnable)).build();
        watcher.addListener(event -> events.add(describe(event)));
        watcher.start();
    }

    /** The watcher's thread waits for slots (or for a change of them). */
    private void awaitWaiting() {
        await().until(() -> thread.getState() == Thread.State.WAITING);
    }

    private void awaitEvents(String event, int times) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> events.stream().filter(event::equals).count() == times);
    }

    private List<String> lines() {
        return logged.list.stream().map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
    }

    private static Set<String> names(Watcher<V1ConfigMap> watcher) {
        return watcher.store().list().stream().map(c -> c.getMetadata().getName())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> intersection(Set<String> a, Set<String> b) {
        Set<String> both = new TreeSet<>(a);
        both.retainAll(b);
        assertThat(both).isNotEmpty();
        return both;
    }

    private static String uid(String name) {
        return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** The name {@code prefix-i} with the lowest i whose uid lies in {@code slots} ({@code inside}) or not. */
    private static String firstName(String prefix, Slots slots, boolean inside) {
        return IntStream.range(0, 1000).mapToObj(i -> prefix + "-" + i)
                .filter(name -> slots.contains(UidHash.of(uid(name))) == inside).findFirst().orElseThrow();
    }

    private static String uidIn(Slots slots, boolean inside) {
        return uid(firstName("owner", slots, inside));
    }

    private static V1OwnerReference owner(String uid, boolean controller) {
        return new V1OwnerReference().apiVersion("v1").kind("Owner").name("owner").uid(uid).controller(controller);
    }

    private static V1ConfigMap object(String name, V1OwnerReference owner) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name(name).uid(uid(name))
                .ownerReferences(owner == null ? null : List.of(owner)));
    }

    private static String describe(WatchEvent<V1ConfigMap> event) {
        if (event instanceof WatchEvent.InitApply<V1ConfigMap> e) {
            return "InitApply(" + e.object().getMetadata().getName() + ")";
        }
        if (event instanceof WatchEvent.Apply<V1ConfigMap> e) {
            return "Apply(" + e.object().getMetadata().getName() + ")";
        }
        if (event instanceof WatchEvent.Delete<V1ConfigMap> e) {
            return (e.finalStateUnknown() ? "Delete?(" : "Delete(") + e.object().getMetadata().getName() + ")";
        }
        if (event instanceof WatchEvent.Failure<V1ConfigMap> e) {
            return e.error().label();
        }
        return event.getClass().getSimpleName();
    }

    /**
     * Lists its objects (all of them, or, when it honours selectors, those the shard selector asks for, echoing it
     * as {@code metadata.shardInfo} does), each list a fresh copy at a new version; holds each watch open with the
     * events {@link #send sent} until aborted.
     */
    private static final class ShardServer implements WatchApi<V1ConfigMap> {

        final Map<String, V1ConfigMap> objects = new ConcurrentHashMap<>();
        final List<String> requests = new CopyOnWriteArrayList<>();
        volatile boolean honoursSelectors;
        volatile boolean failNextList;
        private final AtomicInteger version = new AtomicInteger(10);
        private volatile BlockingQueue<Object> watch = new LinkedBlockingQueue<>();

        void put(V1ConfigMap object) {
            object.getMetadata().resourceVersion(Integer.toString(version.incrementAndGet()));
            objects.put(object.getMetadata().getName(), object);
        }

        String version(String name) {
            return objects.get(name).getMetadata().getResourceVersion();
        }

        Set<String> namesIn(Slots slots) {
            return objects.values().stream().filter(o -> slots.contains(UidHash.of(o.getMetadata().getUid())))
                    .map(o -> o.getMetadata().getName()).collect(Collectors.toCollection(TreeSet::new));
        }

        void send(WireEvent.ChangeType type, V1ConfigMap object) {
            object.getMetadata().resourceVersion(Integer.toString(version.incrementAndGet()));
            watch.add(new WireEvent.Change<>(type, CachedObject.of(object), object.getMetadata().getResourceVersion()));
        }

        @Override
        public ResolvedResource resolve() {
            return ScriptedWatchApi.CONFIG_MAPS;
        }

        @Override
        public ListPage<V1ConfigMap> list(ResolvedResource resource, ListRequest request) throws ApiFailure {
            requests.add("list " + request.shardSelector());
            if (failNextList) {
                failNextList = false;
                throw new ApiFailure(503, "server error 503 on list v1/configmaps");
            }
            ShardSelector selector = honoursSelectors && request.shardSelector() != null
                    ? ShardSelector.parse(request.shardSelector()) : null;
            List<CachedObject<V1ConfigMap>> items = objects.values().stream()
                    .filter(o -> selector == null || selector.matches(o.getMetadata().getUid()))
                    .map(o -> CachedObject.of(new V1ConfigMap().metadata(new V1ObjectMeta()
                            .namespace("default").name(o.getMetadata().getName()).uid(o.getMetadata().getUid())
                            .resourceVersion(o.getMetadata().getResourceVersion())
                            .ownerReferences(o.getMetadata().getOwnerReferences()))))
                    .toList();
            return new ListPage<>(items, Integer.toString(version.get()), null, List.of(),
                    selector == null ? null : selector.toString());
        }

        @Override
        public EventStream<V1ConfigMap> watch(ResolvedResource resource, WatchRequest request) {
            requests.add("watch " + request.shardSelector());
            BlockingQueue<Object> events = new LinkedBlockingQueue<>();
            watch = events;
            return new EventStream<>() {
                @Override
                @SuppressWarnings("unchecked")
                public WireEvent<V1ConfigMap> next() throws IOException {
                    Object next;
                    try {
                        next = events.take();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("interrupted");
                    }
                    if (next instanceof IOException broken) {
                        throw broken;
                    }
                    return (WireEvent<V1ConfigMap>) next;
                }

                @Override
                public void clearDeadline() {
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public void abort() {
            watch.add(new IOException("aborted"));
        }
    }

    /** Virtual time whose waits last until woken: a backoff wait ends only by a wake-up. */
    private static final class BlockingTime implements TimeSource {

        private final ManualTime time = new ManualTime();

        @Override
        public Clock clock() {
            return time.clock();
        }

        @Override
        public void await(Object monitor, Duration delay, BooleanSupplier wake) throws InterruptedException {
            while (!wake.getAsBoolean()) {
                monitor.wait();
            }
        }
    }
}
