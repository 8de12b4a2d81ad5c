package dev.watchkeeper.internal.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.resource.ResolvedResource;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.watch.WatchEvent;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A listener added to a watcher that has begun to list catches up from the store, as a late handler of a client-go
 * informer does: it is handed what the others were handed before, then the rest live, never an event twice and never
 * one missed.
 */
class WatcherCatchUpTest {

    private static final WatchOptions LIST_WATCH = WatchOptions.defaults()
            .withInitialList(InitialListStrategy.LIST_WATCH);

    private final Server server = new Server();
    private Watcher<V1ConfigMap> watcher;

    @AfterEach
    void close() {
        if (watcher != null) {
            watcher.close();
        }
    }

    @Test
    void aListenerAddedBeforeTheFirstListIsHandedNothingTwice() {
        start();
        Recorder early = new Recorder();
        watcher.addListener(early);
        server.page(null, "5", cm("a", "1"), cm("b", "2"));

        await().until(() -> early.events.contains("InitDone"));
        assertThat(early.events).containsExactly("Init", "InitApply a@1", "InitApply b@2", "InitDone");
    }

    @Test
    void aListenerAddedAfterTheSyncGetsTheStoreAsAListThenTheLiveEvents() {
        start();
        Recorder early = new Recorder();
        watcher.addListener(early);
        server.page(null, "5", cm("a", "1"), cm("b", "2"));
        await().until(() -> early.events.contains("InitDone"));

        Recorder late = new Recorder();
        watcher.addListener(late);
        server.event(WireEvent.ChangeType.MODIFIED, cm("a", "6"));
        await().until(() -> late.events.size() == 5);

        assertThat(late.events.subList(0, 4)).as("caught up on the adding thread")
                .startsWith("Init").endsWith("InitDone")
                .containsExactlyInAnyOrder("Init", "InitApply a@1", "InitApply b@2", "InitDone");
        assertThat(late.events.get(4)).isEqualTo("Apply a@6");
        assertThat(late.threads.subList(0, 4)).containsOnly(Thread.currentThread().getName());
        assertThat(early.events).as("the others are handed nothing again")
                .containsExactly("Init", "InitApply a@1", "InitApply b@2", "InitDone", "Apply a@6");
    }

    @Test
    void aListenerAddedDuringTheListGetsWhatWasListedThenTheRestOfTheListLive() {
        start();
        server.page("more", null, cm("a", "1"));
        await().until(() -> watcher.store().size() == 1);

        Recorder late = new Recorder();
        watcher.addListener(late);
        server.page(null, "5", cm("b", "2"));
        await().until(() -> late.events.contains("InitDone"));

        assertThat(late.events).containsExactly("Init", "InitApply a@1", "InitApply b@2", "InitDone");
    }

    /**
     * Objects change and go while listeners join at random moments: each listener's view, rebuilt from what it was
     * handed, ends equal to the store.
     */
    @Test
    void everyListenerEndsWithTheStoreWhenItJoinsWhileEventsFlow() throws Exception {
        start();
        server.page(null, "1", IntStream.range(0, 50).mapToObj(i -> cm("cm-" + i, "1")).toArray(V1ConfigMap[]::new));
        Random random = new Random(7);
        List<Recorder> listeners = new ArrayList<>();
        Thread changes = new Thread(() -> {
            for (int version = 2; version < 2_000; version++) {
                String name = "cm-" + random.nextInt(60);
                server.event(random.nextInt(5) == 0 ? WireEvent.ChangeType.DELETED : WireEvent.ChangeType.MODIFIED,
                        cm(name, Integer.toString(version)));
            }
            server.event(WireEvent.ChangeType.ADDED, cm("last", "2000"));
        });
        changes.start();
        for (int i = 0; i < 20; i++) {
            Recorder listener = new Recorder();
            watcher.addListener(listener);
            listeners.add(listener);
            Thread.onSpinWait();
        }
        changes.join();
        await().until(() -> watcher.store().get("default", "last").isPresent());

        Map<String, String> store = new TreeMap<>();
        watcher.store().list().forEach(cm -> store.put(cm.getMetadata().getName(),
                cm.getMetadata().getResourceVersion()));
        for (Recorder listener : listeners) {
            await().until(() -> listener.view.containsKey("last"));
            assertThat(listener.view).isEqualTo(store);
        }
    }

    private void start() {
        watcher = Watcher.builder(server, ResourceType.of(V1ConfigMap.class)).name("cms").options(LIST_WATCH).build();
        watcher.start();
    }

    private static V1ConfigMap cm(String name, String resourceVersion) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name(name)
                .resourceVersion(resourceVersion));
    }

    /** What one listener was handed, as text and as the objects it knows of (name → resourceVersion). */
    private static final class Recorder implements dev.watchkeeper.watch.WatchEventListener<V1ConfigMap> {

        final List<String> events = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();
        final Map<String, String> view = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        public void onEvent(WatchEvent<V1ConfigMap> event) {
            threads.add(Thread.currentThread().getName());
            if (event instanceof WatchEvent.InitApply<V1ConfigMap> apply) {
                events.add("InitApply " + text(apply.cached()));
                view.put(apply.cached().key().name(), apply.cached().resourceVersion());
            } else if (event instanceof WatchEvent.Apply<V1ConfigMap> apply) {
                events.add("Apply " + text(apply.cached()));
                view.put(apply.cached().key().name(), apply.cached().resourceVersion());
            } else if (event instanceof WatchEvent.Delete<V1ConfigMap> delete) {
                events.add("Delete " + text(delete.cached()));
                view.remove(delete.cached().key().name());
            } else {
                events.add(event.getClass().getSimpleName());
            }
        }

        private static String text(CachedObject<V1ConfigMap> cached) {
            return cached.key().name() + "@" + cached.resourceVersion();
        }
    }

    /** Lists answer the pages given, in order, when given; the one watch hands the events given until closed. */
    private static final class Server implements WatchApi<V1ConfigMap> {

        private final BlockingQueue<ListPage<V1ConfigMap>> pages = new LinkedBlockingQueue<>();
        private final BlockingQueue<WireEvent<V1ConfigMap>> events = new LinkedBlockingQueue<>();
        private volatile boolean aborted;

        void page(String continueToken, String resourceVersion, V1ConfigMap... items) {
            pages.add(new ListPage<>(List.of(items).stream().map(CachedObject::of).toList(), resourceVersion,
                    continueToken, List.of()));
        }

        void event(WireEvent.ChangeType type, V1ConfigMap object) {
            events.add(new WireEvent.Change<>(type, CachedObject.of(object),
                    object.getMetadata().getResourceVersion()));
        }

        @Override
        public ResolvedResource resolve() {
            return ScriptedWatchApi.CONFIG_MAPS;
        }

        @Override
        public ListPage<V1ConfigMap> list(ResolvedResource resource, ListRequest request) throws ApiFailure {
            try {
                while (!aborted) {
                    ListPage<V1ConfigMap> page = pages.poll(20, TimeUnit.MILLISECONDS);
                    if (page != null) {
                        return page;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new ApiFailure(0, "closed");
        }

        @Override
        public EventStream<V1ConfigMap> watch(ResolvedResource resource, WatchRequest request) {
            return new EventStream<>() {
                @Override
                public WireEvent<V1ConfigMap> next() throws IOException {
                    try {
                        while (!aborted) {
                            WireEvent<V1ConfigMap> event = events.poll(20, TimeUnit.MILLISECONDS);
                            if (event != null) {
                                return event;
                            }
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw new InterruptedIOException("closed");
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
            aborted = true;
        }
    }
}
