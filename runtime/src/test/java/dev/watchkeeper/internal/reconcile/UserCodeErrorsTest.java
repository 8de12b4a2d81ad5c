package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.FakeWatchApi;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import static dev.watchkeeper.reconcile.TestObjects.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.internal.watch.BufferedWatchEventListener;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatchEventListener;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.watch.WatcherPhase;
import dev.watchkeeper.watch.WatcherSnapshot;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Errors thrown by user code (docs/semantics.md §10): a listener or reconciler that throws an {@link AssertionError}
 * or a {@link StackOverflowError} fails once and the watcher or reconciler goes on; a fatal error (an
 * {@link OutOfMemoryError}) stops it, visibly — the watcher's snapshot is {@code STOPPED} naming the error, the
 * reconciler is no longer ready and names it on the key — and is thrown on to the thread's uncaught-exception handler.
 */
@Timeout(10)
class UserCodeErrorsTest {

    private static final ResourceType<V1ConfigMap> CONFIG_MAPS = ReconcilerTest.CONFIG_MAPS;

    /** The errors that reach threads' uncaught-exception handlers, by thread name. */
    private final Map<String, Throwable> uncaught = new ConcurrentHashMap<>();
    private final ThreadFactory threads = body -> {
        Thread thread = new Thread(body);
        thread.setDaemon(true);
        thread.setUncaughtExceptionHandler((t, e) -> uncaught.put(t.getName(), e));
        return thread;
    };
    private final FakeWatchApi<V1ConfigMap> api = new FakeWatchApi<>(CONFIG_MAPS);
    private final Watcher<V1ConfigMap> watcher = Watcher.builder(api, CONFIG_MAPS).name("cms").threadFactory(threads)
            .build();
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        watcher.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"AssertionError", "StackOverflowError", "NoClassDefFoundError"})
    void aListenerThatThrowsANonFatalErrorLeavesTheWatcherWorking(String error) {
        List<String> heard = new CopyOnWriteArrayList<>();
        watcher.addListener(throwingOn("poison", error, heard));
        api.listing(configMap("poison", "1"), configMap("a", "1"));
        watcher.start();

        await().until(() -> watcher.snapshot().synced());
        api.apply(configMap("b", "2"));

        await().until(() -> heard.contains("b"));
        assertThat(heard).containsExactly("poison", "a", "b");
        assertThat(watcher.store().list()).hasSize(3);
        assertThat(watcher.isRunning()).isTrue();
        assertThat(watcher.snapshot().phase()).isEqualTo(WatcherPhase.WATCHING);
        assertThat(uncaught).isEmpty();
    }

    @Test
    void aListenerThatThrowsAFatalErrorStopsTheWatcherNamingIt() {
        watcher.addListener(throwingOn("poison", "OutOfMemoryError", new ArrayList<>()));
        api.listing(configMap("a", "1"));
        watcher.start();
        await().until(() -> watcher.snapshot().synced());

        api.apply(configMap("poison", "2"));

        await().until(() -> !watcher.isRunning());
        WatcherSnapshot stopped = watcher.snapshot();
        assertThat(stopped.phase()).isEqualTo(WatcherPhase.STOPPED);
        assertThat(stopped.synced()).isFalse();
        assertThat(stopped.lastError().message())
                .isEqualTo("a listener threw java.lang.OutOfMemoryError on Apply; the watcher stopped");
        assertThat(uncaught).containsOnlyKeys("watchkeeper-cms");
        assertThat(uncaught.get("watchkeeper-cms")).isInstanceOf(OutOfMemoryError.class);
    }

    @Test
    void aBufferedListenerSurvivesANonFatalErrorAndStopsOnAFatalOne() {
        List<String> heard = new CopyOnWriteArrayList<>();
        WatchEventListener<V1ConfigMap> listener = event -> {
            String name = nameOf(event);
            if (name != null) {
                heard.add(name);
                if (name.startsWith("assert")) {
                    throw new AssertionError("expected something else");
                }
                if (name.startsWith("oom")) {
                    throw new OutOfMemoryError("simulated");
                }
            }
        };
        BufferedWatchEventListener<V1ConfigMap> buffered = new BufferedWatchEventListener<>("cms", "audit", 10,
                threads, listener);
        closing.add(buffered);
        buffered.start();
        watcher.addListener(buffered);
        api.listing(configMap("assert-1", "1"), configMap("a", "1"));
        watcher.start();
        await().until(() -> heard.contains("a"));

        api.apply(configMap("oom-1", "2"));
        await().until(() -> uncaught.containsKey("watchkeeper-listener-cms-audit"));
        api.apply(configMap("b", "3"));

        await().until(() -> watcher.store().list().size() == 4);
        assertThat(heard).containsExactly("assert-1", "a", "oom-1");
        assertThat(uncaught.get("watchkeeper-listener-cms-audit")).isInstanceOf(OutOfMemoryError.class);
        assertThat(watcher.snapshot().phase()).as("the watcher is not disturbed").isEqualTo(WatcherPhase.WATCHING);
    }

    @ParameterizedTest
    @ValueSource(strings = {"AssertionError", "StackOverflowError"})
    void aReconcilerThatThrowsANonFatalErrorIsRetriedWithItsBackoff(String error) {
        AtomicInteger attempts = new AtomicInteger();
        Reconciler<V1ConfigMap> reconciler = start((object, context) -> {
            if (attempts.incrementAndGet() <= 2) {
                throw error(error);
            }
            return ReconcileResult.done();
        });

        await().until(() -> attempts.get() == 3 && reconciler.snapshot().failingKeysTotal() == 0);
        assertThat(reconciler.snapshot().counts().errors()).isEqualTo(2);
        assertThat(reconciler.snapshot().lastResult()).isEqualTo("done");
        assertThat(reconciler.isReady()).isTrue();
        assertThat(reconciler.isRunning()).isTrue();
        assertThat(uncaught).isEmpty();
    }

    @Test
    void aReconcilerThatThrowsAFatalErrorStopsAndNamesIt() {
        AtomicInteger reconciles = new AtomicInteger();
        Reconciler<V1ConfigMap> reconciler = start((object, context) -> {
            reconciles.incrementAndGet();
            throw new OutOfMemoryError("simulated");
        });

        await().until(() -> !reconciler.isRunning());
        api.apply(configMap("a", "2"));
        await().until(() -> watcher.store().get(new ObjectKey("default", "a"))
                .map(cm -> cm.getMetadata().getResourceVersion().equals("2")).orElse(false));

        ReconcilerSnapshot snapshot = reconciler.snapshot();
        assertThat(reconciles).as("no reconcile after the fatal error").hasValue(1);
        assertThat(snapshot.ready()).isFalse();
        assertThat(snapshot.lastResult()).isEqualTo("error");
        assertThat(snapshot.failingKeys()).singleElement()
                .satisfies(key -> assertThat(key.lastError()).contains("OutOfMemoryError").contains("simulated"));
        assertThat(uncaught.entrySet()).as("thrown on to the handler of the one worker that ran it").singleElement()
                .satisfies(entry -> {
                    assertThat(entry.getKey()).startsWith("watchkeeper-test-worker-");
                    assertThat(entry.getValue()).isInstanceOf(OutOfMemoryError.class);
                });
        assertThat(watcher.snapshot().phase()).as("the watcher goes on").isEqualTo(WatcherPhase.WATCHING);
    }

    private Reconciler<V1ConfigMap> start(ReconcileFunction<V1ConfigMap> reconcile) {
        api.listing(configMap("a", "1"));
        Reconciler<V1ConfigMap> reconciler = Reconciler.builder("test", watcher, reconcile)
                .threadFactory(threads).build();
        closing.add(() -> reconciler.close(Duration.ofSeconds(1)));
        watcher.start();
        reconciler.start();
        return reconciler;
    }

    private static WatchEventListener<V1ConfigMap> throwingOn(String poison, String error, List<String> heard) {
        return event -> {
            String name = nameOf(event);
            if (name != null) {
                heard.add(name);
                if (name.equals(poison)) {
                    throw error(error);
                }
            }
        };
    }

    private static String nameOf(WatchEvent<V1ConfigMap> event) {
        if (event instanceof WatchEvent.InitApply<V1ConfigMap> apply) {
            return apply.object().getMetadata().getName();
        }
        if (event instanceof WatchEvent.Apply<V1ConfigMap> apply) {
            return apply.object().getMetadata().getName();
        }
        return null;
    }

    /** Throws the named error; a stack overflow is a real one. */
    private static Error error(String kind) {
        return switch (kind) {
            case "AssertionError" -> new AssertionError("expected something else");
            case "StackOverflowError" -> overflow(0);
            case "NoClassDefFoundError" -> new NoClassDefFoundError("com/example/Missing");
            case "OutOfMemoryError" -> new OutOfMemoryError("simulated");
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static Error overflow(int depth) {
        return overflow(depth + 1);
    }
}
