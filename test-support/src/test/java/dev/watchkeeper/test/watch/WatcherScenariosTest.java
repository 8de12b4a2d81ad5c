package dev.watchkeeper.test.watch;

import static dev.watchkeeper.test.stub.Replies.added;
import static dev.watchkeeper.test.stub.Replies.bookmark;
import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.crdMissing;
import static dev.watchkeeper.test.stub.Replies.emptyWatch;
import static dev.watchkeeper.test.stub.Replies.events;
import static dev.watchkeeper.test.stub.Replies.expiredEvent;
import static dev.watchkeeper.test.stub.Replies.forbidden;
import static dev.watchkeeper.test.stub.Replies.initialEventsEnd;
import static dev.watchkeeper.test.stub.Replies.modified;
import static dev.watchkeeper.test.stub.Replies.notJson;
import static dev.watchkeeper.test.stub.Replies.page;
import static dev.watchkeeper.test.stub.Replies.serviceUnavailable;
import static dev.watchkeeper.test.stub.Replies.status;
import static dev.watchkeeper.test.stub.Replies.tooManyRequests;
import static dev.watchkeeper.test.stub.Replies.tooLargeResourceVersion;
import static dev.watchkeeper.test.stub.Replies.tooOldResourceVersion;
import static dev.watchkeeper.test.stub.Replies.undecodable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.test.EventRecorder;
import dev.watchkeeper.test.VirtualTime;
import dev.watchkeeper.test.stub.KubeApiStub;
import dev.watchkeeper.test.stub.PathScript;
import dev.watchkeeper.test.stub.RecordedRequest;
import dev.watchkeeper.watch.ErrorKind;
import dev.watchkeeper.internal.watch.InitialListStrategy;
import dev.watchkeeper.internal.watch.ListSemantics;
import dev.watchkeeper.watch.WatchError;
import dev.watchkeeper.internal.watch.WatchOptions;
import dev.watchkeeper.internal.watch.WatchScope;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.watch.WatcherPhase;
import dev.watchkeeper.watch.WatcherSnapshot;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The watcher against a scripted API server over real HTTP, in virtual time: each test scripts the server,
 * runs the watcher, and asserts the exact events, requests and backoff delays (docs/semantics.md §3–§6).
 */
class WatcherScenariosTest {

    private static final String PATH = "/api/v1/namespaces/default/configmaps";
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final KubeApiStub stub = new KubeApiStub();
    private final VirtualTime time = new VirtualTime();
    private final EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();
    private final List<Watcher<?>> watchers = new ArrayList<>();

    @BeforeEach
    void startStub() {
        stub.start();
    }

    @AfterEach
    void closeAll() {
        List<RuntimeException> failures = new ArrayList<>();
        for (Watcher<?> watcher : watchers) {
            try {
                watcher.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        stub.close();
        if (!failures.isEmpty()) {
            throw new AssertionError("Watcher.close() threw", failures.get(0));
        }
    }

    @Test
    void paginatedInitialListThenWatch() {
        script()
                .list(page(cm("a", "2"), cm("b", "3")).continueToken("c1").resourceVersion("4"))
                .list(page(cm("c", "4")).resourceVersion("4"))
                .watch(events(added(cm("d", "5"))).thenStayOpen());

        Watcher<V1ConfigMap> watcher = start(WatchOptions.defaults().withPageSize(2), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(6, WAIT))
                .containsExactly("Init", "InitApply(a)", "InitApply(b)", "InitApply(c)", "InitDone", "Apply(d)");
        List<RecordedRequest> lists = stub.listRequests(PATH);
        assertThat(lists).extracting(RecordedRequest::limit).containsExactly(2, 2);
        assertThat(lists).extracting(RecordedRequest::continueToken).containsExactly(null, "c1");
        RecordedRequest watch = stub.watchRequests(PATH).get(0);
        assertThat(watch.resourceVersion()).isEqualTo("4");
        assertThat(watch.allowWatchBookmarks()).isTrue();
        assertThat(watch.timeoutSeconds()).isEqualTo(290);
        assertThat(watcher.store().list()).extracting(c -> c.getMetadata().getName()).containsExactly("a", "b", "c",
                "d");
        // Listeners hear an event before the watcher publishes the snapshot that counts it.
        await().atMost(WAIT).until(() -> "5".equals(watcher.snapshot().resourceVersion()));
        assertThat(watcher.snapshot().resource()).isEqualTo("v1/configmaps");
        assertThat(watcher.snapshot().counts()).isEqualTo(new WatcherSnapshot.Counts(4, 0, 0));
        assertThat(time.sleeps()).isEmpty();
        stub.assertScriptConsumed();
        stub.assertNoViolations();
    }

    @Test
    void streamingListEmitsInitInitApplyAndInitDoneOnOneWatch() {
        script().watch(events(added(cm("a", "5")), added(cm("b", "6")), initialEventsEnd("7"),
                modified(cm("a", "8"))).thenStayOpen());

        start(WatchOptions.defaults().withInitialList(InitialListStrategy.STREAMING), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(5, WAIT))
                .containsExactly("Init", "InitApply(a)", "InitApply(b)", "InitDone", "Apply(a)");
        RecordedRequest watch = stub.watchRequests(PATH).get(0);
        assertThat(watch.sendInitialEvents()).isTrue();
        assertThat(watch.resourceVersionMatch()).isEqualTo("NotOlderThan");
        assertThat(watch.allowWatchBookmarks()).isTrue();
        assertThat(watch.resourceVersion()).isNull();
        assertThat(stub.listRequests(PATH)).isEmpty();
        stub.assertNoViolations();
    }

    @Test
    void streamingListStartsOverAfterAnExpiredError() {
        script()
                .watch(events(added(cm("a", "5")), initialEventsEnd("6"), expiredEvent("6", "9")))
                .watch(events(added(cm("a", "10")), initialEventsEnd("11")).thenStayOpen());

        Watcher<V1ConfigMap> watcher = start(
                WatchOptions.defaults().withInitialList(InitialListStrategy.STREAMING), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(7, WAIT)).containsExactly("Init", "InitApply(a)", "InitDone",
                "Error(WatchError 410)", "Init", "InitApply(a)", "InitDone");
        List<RecordedRequest> watches = stub.watchRequests(PATH);
        assertThat(watches).hasSize(2).allSatisfy(w -> assertThat(w.sendInitialEvents()).isTrue());
        assertThat(watches.get(1).resourceVersion()).isNull();
        assertThat(time.sleeps()).as("a first 410 relists at once").isEmpty();
        assertThat(watcher.store().size()).isEqualTo(1);
        stub.assertScriptConsumed();
    }

    @Test
    void cachedListsAnyVersionFirstRelistsAtTheLastSyncedVersionAndFallsBackWhenItIsTooLarge() {
        script()
                .list(page(cm("a", "2"), cm("b", "3")).resourceVersion("4"))
                .watch(events(added(cm("c", "5")), bookmark("6"), expiredEvent("6", "9")))
                .list(page(cm("a", "2"), cm("c", "5")).resourceVersion("9"))
                .watch(events(modified(cm("c", "10")), expiredEvent("10", "12")))
                .list(tooLargeResourceVersion("10", "8"))
                .list(page(cm("a", "2")).continueToken("c1").resourceVersion("12"))
                .list(page(cm("c", "10")).resourceVersion("12"))
                .watch(events(modified(cm("a", "13"))).thenStayOpen());

        Watcher<V1ConfigMap> watcher = start(WatchOptions.defaults().withListSemantics(ListSemantics.CACHED)
                .withPageSize(2), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(18, WAIT)).containsExactly("Init", "InitApply(a)", "InitApply(b)", "InitDone",
                "Apply(c)", "Error(WatchError 410)", "Init", "InitApply(a)", "InitApply(c)",
                "Delete(b, final state unknown)", "InitDone", "Apply(c)", "Error(WatchError 410)", "Init", "Error(InitialListFailed 504)",
                "InitApply(a)", "InitApply(c)", "InitDone");
        List<RecordedRequest> lists = stub.listRequests(PATH);
        assertThat(lists).extracting(RecordedRequest::resourceVersion).containsExactly("0", "6", "10", null, null);
        assertThat(lists).extracting(RecordedRequest::limit).containsExactly(2, null, null, 2, 2);
        assertThat(lists).extracting(RecordedRequest::continueToken).containsExactly(null, null, null, null, "c1");
        assertThat(time.sleeps()).as("a refused version is listed consistently at once").isEmpty();
        await().atMost(WAIT).until(() -> watcher.store().get("default", "a").map(
                cm -> cm.getMetadata().getResourceVersion()).orElse("").equals("13"));
        stub.assertScriptConsumed();
    }

    @Test
    void brokenWatchResumesFromTheLastVersionWithoutRelisting() {
        script()
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch(events(modified(cm("a", "6"))).thenReset())
                .watch(events(modified(cm("a", "7"))).thenStayOpen());

        start(WatchOptions.defaults(), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(6, WAIT)).containsExactly("Init", "InitApply(a)", "InitDone", "Apply(a)",
                "Error(WatchFailed)", "Apply(a)");
        assertThat(stub.listRequests(PATH)).hasSize(1);
        assertThat(stub.watchRequests(PATH)).extracting(RecordedRequest::resourceVersion).containsExactly("5", "6");
        assertThat(time.sleeps()).singleElement().satisfies(d -> assertBetween(d, 800, 1_600));
        stub.assertScriptConsumed();
    }

    @Test
    void endOfStreamRewatchesFromTheLastVersionAtOnce() {
        script()
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch(events(modified(cm("a", "6"))))
                .watch(events(modified(cm("a", "7"))).thenStayOpen());

        start(WatchOptions.defaults(), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(5, WAIT))
                .containsExactly("Init", "InitApply(a)", "InitDone", "Apply(a)", "Apply(a)");
        assertThat(stub.watchRequests(PATH)).extracting(RecordedRequest::resourceVersion).containsExactly("5", "6");
        assertThat(stub.listRequests(PATH)).hasSize(1);
        assertThat(time.sleeps()).isEmpty();
        assertThat(time.elapsed()).isZero();
    }

    @Test
    void expiredVersionAtWatchStartRelistsAtOnce() {
        script()
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch(tooOldResourceVersion("5", "9"))
                .list(page(cm("a", "5"), cm("b", "10")).resourceVersion("10"))
                .watch(events().thenStayOpen());

        start(WatchOptions.defaults(), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(8, WAIT)).containsExactly("Init", "InitApply(a)", "InitDone",
                "Error(WatchStartFailed 410)", "Init", "InitApply(a)", "InitApply(b)", "InitDone");
        stub.awaitScriptConsumed(WAIT);
        assertThat(stub.watchRequests(PATH)).extracting(RecordedRequest::resourceVersion).containsExactly("5", "10");
        assertThat(time.sleeps()).isEmpty();
    }

    @Test
    void failingListBacksOffOnTheClientGoCurve() {
        PathScript script = script();
        for (int i = 0; i < 5; i++) {
            script.list(serviceUnavailable());
        }
        script.list(page(cm("a", "5")).resourceVersion("5")).watch(events().thenStayOpen());

        start(WatchOptions.defaults(), BackOffSettings.clientGo());

        recorder.awaitEvent("InitDone", WAIT);
        List<Duration> sleeps = time.sleeps();
        assertThat(sleeps).hasSize(5);
        assertBetween(sleeps.get(0), 800, 1_600);
        assertBetween(sleeps.get(1), 1_600, 3_200);
        assertBetween(sleeps.get(2), 3_200, 6_400);
        assertBetween(sleeps.get(3), 6_400, 12_800);
        assertBetween(sleeps.get(4), 12_800, 25_600);
        assertThat(recorder.events()).containsSubsequence("Init", "Error(InitialListFailed 503)", "Init",
                "Error(InitialListFailed 503)", "Init", "InitApply(a)", "InitDone");
        assertThat(recorder.events()).filteredOn("Error(InitialListFailed 503)"::equals).hasSize(5);
        assertThat(stub.listRequests(PATH)).hasSize(6);
    }

    @Test
    void backoffStartsOverWhenThePreviousOneIsOlderThanTheResetTimer() {
        script()
                .list(serviceUnavailable())
                .list(serviceUnavailable())
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch(events(modified(cm("a", "6"))).thenStayOpen())
                .watch(serviceUnavailable())
                .watch(events().thenStayOpen());

        start(WatchOptions.defaults(), BackOffSettings.clientGo());
        recorder.awaitEvent("Apply(a)", WAIT);
        assertThat(time.sleeps()).hasSize(2);

        time.advance(Duration.ofMinutes(3));
        stub.endOpenStreams();

        recorder.awaitEvent("Error(WatchStartFailed 503)", WAIT);
        stub.awaitScriptConsumed(WAIT);
        List<Duration> sleeps = time.sleeps();
        assertThat(sleeps).hasSize(3);
        assertBetween(sleeps.get(1), 1_600, 3_200);
        assertThat(sleeps.get(2)).as("back to the initial interval, not 3.2 s or more").isLessThan(
                Duration.ofMillis(1_600));
        assertBetween(sleeps.get(2), 800, 1_600);
    }

    @Test
    void maxElapsedTimeStopsTheWatcher() {
        PathScript script = script();
        for (int i = 0; i < 10; i++) {
            script.list(serviceUnavailable());
        }

        // client-go's curve without jitter: the attempts fail at 0, 0.8, 2.4, 5.6 and 12 s; the fifth is the first
        // past the 10 s limit.
        Watcher<V1ConfigMap> watcher = start(WatchOptions.defaults(), new BackOffSettings(Duration.ofMillis(800), 2.0,
                Duration.ofSeconds(30), 0.0, Duration.ofSeconds(120), Duration.ofSeconds(10)));

        await().atMost(WAIT).until(() -> watcher.snapshot().phase() == WatcherPhase.STOPPED);
        await().atMost(WAIT).until(() -> !watcher.isRunning());
        assertThat(time.sleeps()).containsExactly(Duration.ofMillis(800), Duration.ofMillis(1_600),
                Duration.ofMillis(3_200), Duration.ofMillis(6_400));
        assertThat(watcher.snapshot().lastError().code()).isEqualTo(503);
        assertThat(stub.listRequests(PATH)).as("no request after stopping").hasSize(5);
        assertThat(stub.scriptConsumed()).isFalse();
    }

    @Test
    void bookmarksAdvanceTheResumeVersion() {
        script()
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch(events(bookmark("8"), bookmark("9")))
                .watch(events(modified(cm("a", "10"))).thenStayOpen());

        start(WatchOptions.defaults(), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(4, WAIT)).containsExactly("Init", "InitApply(a)", "InitDone", "Apply(a)");
        assertThat(stub.watchRequests(PATH)).extracting(RecordedRequest::resourceVersion).containsExactly("5", "9");
        assertThat(time.sleeps()).isEmpty();
    }

    @Test
    void brokenLineFailsTheWatchButAnUndecodableObjectIsSkipped() {
        script()
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch(events(undecodable("bad", "6"), modified(cm("a", "7")), notJson("{oops")).thenStayOpen())
                .watch(events(modified(cm("a", "8"))).thenStayOpen());

        start(WatchOptions.defaults(), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(7, WAIT)).containsExactly("Init", "InitApply(a)", "InitDone",
                "Error(DecodeFailed)", "Apply(a)", "Error(WatchFailed)", "Apply(a)");
        assertThat(recorder.errors()).extracting(WatchError::kind)
                .containsExactly(ErrorKind.DECODE_FAILED, ErrorKind.WATCH_FAILED);
        assertThat(recorder.errors().get(0).message()).contains("bad").doesNotContain("not-a-map");
        assertThat(recorder.errors().get(1).message()).contains("not JSON");
        assertThat(stub.watchRequests(PATH)).extracting(RecordedRequest::resourceVersion).containsExactly("5", "7");
        assertThat(time.sleeps()).hasSize(1);
    }

    @Test
    void aListSkipsAnUndecodableItemAndKeepsFieldsItDoesNotKnow() {
        String poison = "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"bad\","
                + "\"namespace\":\"default\",\"resourceVersion\":\"4\"},\"data\":\"not-a-map\"}";
        String newer = "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"c\","
                + "\"namespace\":\"default\",\"resourceVersion\":\"5\"},\"fieldFromANewerServer\":[1]}";
        script()
                .list(page(cm("a", "3"), poison, newer).resourceVersion("5"))
                .watch(events(added(newer.replace("\"c\"", "\"d\"").replace("\"5\"", "\"6\""))).thenStayOpen());

        start(WatchOptions.defaults(), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(6, WAIT)).containsExactly("Init", "InitApply(a)", "InitApply(c)",
                "Error(DecodeFailed)", "InitDone", "Apply(d)");
        assertThat(recorder.errors()).singleElement().satisfies(error -> assertThat(error.message())
                .contains("default/bad", "resourceVersion 4"));
    }

    @Test
    void forbiddenSaysWhatToGrantAndBacksOff() {
        PathScript script = script();
        for (int i = 0; i < 20; i++) {
            script.list(forbidden("configmaps", "default"));
        }
        time.pauseAt(Duration.ofSeconds(30));

        Watcher<V1ConfigMap> watcher = start(WatchOptions.defaults(), BackOffSettings.clientGo());
        time.awaitPaused(WAIT);

        assertThat(stub.listRequests(PATH)).hasSizeBetween(5, 6);
        assertThat(recorder.errors()).first().satisfies(error -> {
            assertThat(error.kind()).isEqualTo(ErrorKind.INITIAL_LIST_FAILED);
            assertThat(error.code()).isEqualTo(403);
            assertThat(error.message()).contains("forbidden: cannot list configmaps in namespace default",
                    "grant list and watch");
        });
        assertThat(watcher.snapshot().phase()).isEqualTo(WatcherPhase.BACKING_OFF);
    }

    @Test
    void missingCrdSaysSoAndBacksOff() {
        String widgets = "/apis/example.com/v1/namespaces/default/widgets";
        PathScript script = stub.on(widgets);
        for (int i = 0; i < 20; i++) {
            script.list(crdMissing());
        }
        time.pauseAt(Duration.ofSeconds(30));
        EventRecorder<DynamicKubernetesObject> widgetEvents = new EventRecorder<>();

        Watcher<DynamicKubernetesObject> watcher = track(HttpWatchApi
                .watcher(stub.apiClient(), ResourceType.dynamic("example.com", "v1", "widgets", true))
                .scope(WatchScope.namespace("default")).timeSource(time).build());
        watcher.addListener(widgetEvents);
        watcher.start();
        time.awaitPaused(WAIT);

        assertThat(stub.listRequests(widgets)).hasSizeBetween(5, 6);
        assertThat(widgetEvents.errors()).first().satisfies(error -> {
            assertThat(error.code()).isEqualTo(404);
            assertThat(error.message()).contains("widgets.example.com", "installed");
        });
    }

    @Test
    void missingCrdOfAKindDeclaredWithoutItsPluralNamesTheCrd() {
        // Without a plural the watcher discovers it first; a CRD that is not installed makes its group-version 404.
        PathScript discovery = stub.on("/apis/example.com/v1");
        for (int i = 0; i < 20; i++) {
            discovery.list(crdMissing());
        }
        time.pauseAt(Duration.ofSeconds(30));
        EventRecorder<DynamicKubernetesObject> widgetEvents = new EventRecorder<>();

        startWidgets(widgetEvents);
        time.awaitPaused(WAIT);

        assertThat(widgetEvents.errors()).first().satisfies(error -> {
            assertThat(error.kind()).isEqualTo(ErrorKind.INITIAL_LIST_FAILED);
            assertThat(error.code()).isEqualTo(404);
            assertThat(error.message()).isEqualTo("not found: is the CRD widgets.example.com installed?");
        });
    }

    @Test
    void aGroupVersionWithoutTheKindNamesTheMissingCrd() {
        stub.resource("example.com/v1", "gadgets", "Gadget", true);
        time.pauseAt(Duration.ofSeconds(30));
        EventRecorder<DynamicKubernetesObject> widgetEvents = new EventRecorder<>();

        startWidgets(widgetEvents);
        time.awaitPaused(WAIT);

        assertThat(widgetEvents.errors()).first().satisfies(error -> {
            assertThat(error.code()).isEqualTo(404);
            assertThat(error.message())
                    .isEqualTo("not found: example.com/v1 serves no Widget — is the CRD widgets.example.com installed?");
        });
    }

    @Test
    void relistSweepsObjectsThatAreGoneAndReportsThemAsDeletesBeforeInitDone() {
        script()
                .list(page(cm("a", "2"), cm("b", "3")).resourceVersion("5"))
                .watch(events(expiredEvent("5", "9")))
                .list(page(cm("b", "3"), cm("c", "10")).resourceVersion("10"))
                .watch(events().thenStayOpen());

        Watcher<V1ConfigMap> watcher = start(WatchOptions.defaults(), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(10, WAIT)).containsExactly("Init", "InitApply(a)", "InitApply(b)",
                "InitDone", "Error(WatchError 410)", "Init", "InitApply(b)", "InitApply(c)",
                "Delete(a, final state unknown)", "InitDone");
        await().atMost(WAIT).until(() -> watcher.snapshot().phase() == WatcherPhase.WATCHING);
        assertThat(watcher.store().list()).extracting(c -> c.getMetadata().getName()).containsExactly("b", "c");
        assertThat(watcher.snapshot().synced()).isTrue();
        assertThat(watcher.snapshot().objects()).isEqualTo(2);
        assertThat(watcher.snapshot().counts().relists()).isEqualTo(1);
    }

    @Test
    void closeReturnsWithinOneSecondFromAnOpenWatch() {
        script().list(page(cm("a", "5")).resourceVersion("5")).watch(events().thenStayOpen());
        Watcher<V1ConfigMap> watcher = start(WatchOptions.defaults(), BackOffSettings.clientGo());
        recorder.awaitEvent("InitDone", WAIT);
        stub.awaitRequests(PATH, 2, WAIT);

        long started = System.nanoTime();
        watcher.close();
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).isLessThan(Duration.ofSeconds(1));
        assertThat(watcher.isRunning()).isFalse();
        assertThat(watcher.snapshot().phase()).isEqualTo(WatcherPhase.STOPPED);
    }

    @Test
    void closeReturnsWithinOneSecondFromABackoff() {
        script().list(serviceUnavailable());
        time.pauseAt(Duration.ZERO);
        Watcher<V1ConfigMap> watcher = start(WatchOptions.defaults(), BackOffSettings.clientGo());
        time.awaitPaused(WAIT);

        long started = System.nanoTime();
        watcher.close();
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).isLessThan(Duration.ofSeconds(1));
        assertThat(watcher.isRunning()).isFalse();
        assertThat(stub.listRequests(PATH)).hasSize(1);
    }

    @Test
    void proxyEndingEveryWatchAtOnceDoesNotHotLoop() {
        PathScript script = script().list(page(cm("a", "5")).resourceVersion("5"));
        for (int i = 0; i < 30; i++) {
            script.watch(emptyWatch());
        }
        time.pauseAt(Duration.ofSeconds(30));

        start(WatchOptions.defaults(), BackOffSettings.clientGo());
        time.awaitPaused(WAIT);

        assertThat(stub.requests(PATH)).hasSizeLessThanOrEqualTo(8);
        assertThat(stub.watchRequests(PATH)).extracting(RecordedRequest::resourceVersion).containsOnly("5");
        assertThat(recorder.events()).startsWith("Init", "InitApply(a)", "InitDone", "Error(WatchFailed)");
        assertThat(time.sleeps()).hasSizeGreaterThanOrEqualTo(4);
    }

    @Test
    void aSilentWatchIsBrokenAfterTheTimeoutPlusTheIdleMargin() {
        script().list(page(cm("a", "5")).resourceVersion("5"))
                .watch(events().thenStayOpen())
                .watch(events(added(cm("b", "6"))).thenStayOpen());

        start(WatchOptions.defaults().withTimeout(Duration.ofSeconds(1)).withIdleMargin(Duration.ofMillis(200)),
                BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(5, WAIT))
                .containsExactly("Init", "InitApply(a)", "InitDone", "Error(WatchFailed)", "Apply(b)");
        assertThat(recorder.errors()).extracting(WatchError::message)
                .anySatisfy(m -> assertThat(m).contains("idle timeout"));
        assertThat(stub.watchRequests(PATH)).extracting(RecordedRequest::resourceVersion).containsExactly("5", "5");
    }

    @Test
    void aThrottledListWaitsAtLeastTheServersRetryAfter() {
        script().list(tooManyRequests(40))
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch(events().thenStayOpen());

        start(WatchOptions.defaults(), BackOffSettings.clientGo());

        recorder.awaitEvent("InitDone", WAIT);
        assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(40));
        assertThat(recorder.errors()).extracting(WatchError::message)
                .containsExactly("too many requests: the server throttles list v1/configmaps; retrying after 40s");
    }

    @Test
    void autoFallsBackToListWatchWhenTheServerRejectsStreamingAndRemembersIt() {
        script().watch(status(400))
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch(events(expiredEvent("5", "6")).thenEof())
                .list(page(cm("a", "7")).resourceVersion("7"))
                .watch(events().thenStayOpen());

        start(WatchOptions.defaults().withInitialList(InitialListStrategy.AUTO), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(9, WAIT)).containsExactly("Init", "Error(WatchStartFailed 400)", "Init",
                "InitApply(a)", "InitDone", "Error(WatchError 410)", "Init", "InitApply(a)", "InitDone");
        stub.awaitRequests(PATH, 5, WAIT);
        assertThat(stub.watchRequests(PATH)).extracting(RecordedRequest::sendInitialEvents)
                .containsExactly(true, false, false);
        assertThat(time.sleeps()).isEmpty();
    }

    @Test
    void autoFallsBackToListWatchAfterThreeStreamingListsAnswered503() {
        script().watch(serviceUnavailable()).watch(serviceUnavailable()).watch(serviceUnavailable())
                .list(page(cm("a", "5")).resourceVersion("5"))
                .watch(events().thenStayOpen());

        start(auto(), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(9, WAIT)).containsExactly("Init", "Error(WatchStartFailed 503)", "Init",
                "Error(WatchStartFailed 503)", "Init", "Error(WatchStartFailed 503)", "Init", "InitApply(a)",
                "InitDone");
        stub.awaitScriptConsumed(WAIT);
        assertThat(stub.watchRequests(PATH)).extracting(RecordedRequest::sendInitialEvents)
                .containsExactly(true, true, true, false);
        assertThat(stub.listRequests(PATH)).hasSize(1);
        assertThat(recorder.errors()).last().extracting(WatchError::message).asString()
                .endsWith("; falling back to list-watch after 3 failed streaming lists in a row");
        assertClientGoCurve(time.sleeps(), 3);
    }

    @Test
    void autoFallsBackToListWatchAfterThreeStreamingListsResetBeforeTheirBookmark() {
        PathScript script = script();
        for (int i = 0; i < 3; i++) {
            script.watch(events(added(cm("a", "5"))).thenReset());
        }
        script.list(page(cm("a", "5"), cm("b", "6")).resourceVersion("6")).watch(events().thenStayOpen());

        start(auto(), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(13, WAIT)).containsExactly(
                "Init", "InitApply(a)", "Error(WatchFailed)",
                "Init", "InitApply(a)", "Error(WatchFailed)",
                "Init", "InitApply(a)", "Error(WatchFailed)",
                "Init", "InitApply(a)", "InitApply(b)", "InitDone");
        stub.awaitScriptConsumed(WAIT);
        assertThat(stub.watchRequests(PATH)).extracting(RecordedRequest::sendInitialEvents)
                .containsExactly(true, true, true, false);
        assertThat(recorder.errors()).extracting(WatchError::message).allSatisfy(m -> assertThat(m)
                .startsWith("watch of v1/configmaps broke: the connection broke mid-stream"));
        assertThat(recorder.errors().get(2).message()).endsWith("falling back to list-watch after 3 failed "
                + "streaming lists in a row");
        assertClientGoCurve(time.sleeps(), 3);
    }

    @Test
    void autoFallsBackToListWatchAfterThreeStreamingListsEndBeforeTheirBookmark() {
        PathScript script = script();
        for (int i = 0; i < 3; i++) {
            script.watch(events(added(cm("a", "5"))).thenEof());
        }
        script.list(page(cm("a", "5")).resourceVersion("5")).watch(events().thenStayOpen());

        start(auto(), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(12, WAIT)).containsExactly(
                "Init", "InitApply(a)", "Error(WatchFailed)",
                "Init", "InitApply(a)", "Error(WatchFailed)",
                "Init", "InitApply(a)", "Error(WatchFailed)",
                "Init", "InitApply(a)", "InitDone");
        stub.awaitScriptConsumed(WAIT);
        assertThat(stub.watchRequests(PATH)).extracting(RecordedRequest::sendInitialEvents)
                .containsExactly(true, true, true, false);
        assertThat(recorder.errors()).extracting(WatchError::message).allSatisfy(m -> assertThat(m)
                .startsWith("the streaming list of v1/configmaps ended after 0ms, before the end of its initial "
                        + "events"));
        assertClientGoCurve(time.sleeps(), 3);
    }

    @Test
    void autoKeepsStreamingWhileTheServerThrottles() {
        PathScript script = script();
        for (int i = 0; i < 4; i++) {
            script.watch(tooManyRequests(1));
        }
        script.watch(events(added(cm("a", "5")), initialEventsEnd("6")).thenStayOpen());

        start(auto(), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(11, WAIT)).containsExactly("Init", "Error(WatchStartFailed 429)",
                "Init", "Error(WatchStartFailed 429)", "Init", "Error(WatchStartFailed 429)",
                "Init", "Error(WatchStartFailed 429)", "Init", "InitApply(a)", "InitDone");
        assertThat(stub.watchRequests(PATH)).hasSize(5)
                .allSatisfy(watch -> assertThat(watch.sendInitialEvents()).isTrue());
        assertThat(stub.listRequests(PATH)).isEmpty();
        assertThat(time.sleeps()).hasSize(4).allSatisfy(d -> assertThat(d).isGreaterThanOrEqualTo(
                Duration.ofSeconds(1)));
    }

    @Test
    void autoKeepsStreamingWhileTheConnectionIsRefused() throws IOException {
        ApiClient client = refusingStreamingLists(4);
        script().watch(events(added(cm("a", "5")), initialEventsEnd("6")).thenStayOpen());

        start(client, auto(), BackOffSettings.clientGo());

        assertThat(recorder.awaitEvents(11, WAIT)).containsExactly("Init", "Error(WatchStartFailed)",
                "Init", "Error(WatchStartFailed)", "Init", "Error(WatchStartFailed)",
                "Init", "Error(WatchStartFailed)", "Init", "InitApply(a)", "InitDone");
        assertThat(recorder.errors()).extracting(WatchError::message)
                .allSatisfy(m -> assertThat(m).startsWith("connection refused: 127.0.0.1:"));
        assertThat(stub.watchRequests(PATH)).singleElement()
                .satisfies(watch -> assertThat(watch.sendInitialEvents()).isTrue());
        assertThat(stub.listRequests(PATH)).isEmpty();
        assertClientGoCurve(time.sleeps(), 4);
    }

    private PathScript script() {
        return stub.on(PATH);
    }

    private Watcher<V1ConfigMap> start(WatchOptions options, BackOffSettings backOff) {
        return start(stub.apiClient(), options, backOff);
    }

    private Watcher<V1ConfigMap> start(ApiClient client, WatchOptions options, BackOffSettings backOff) {
        Watcher<V1ConfigMap> watcher = track(HttpWatchApi.watcher(client, ResourceType.of(V1ConfigMap.class))
                .name("cms")
                .scope(WatchScope.namespace("default"))
                .options(options)
                .backOff(backOff)
                .timeSource(time)
                .build());
        watcher.addListener(recorder);
        watcher.start();
        return watcher;
    }

    /** Widgets as a property declares them: group, version and kind, plural and scope left to discovery. */
    private void startWidgets(EventRecorder<DynamicKubernetesObject> recorder) {
        Watcher<DynamicKubernetesObject> watcher = track(HttpWatchApi.watcher(stub.apiClient(),
                        new ResourceType<>(DynamicKubernetesObject.class, "example.com", "v1", "Widget", null, null))
                .scope(WatchScope.namespace("default")).timeSource(time).build());
        watcher.addListener(recorder);
        watcher.start();
    }

    private <T extends KubernetesObject> Watcher<T> track(Watcher<T> watcher) {
        watchers.add(watcher);
        return watcher;
    }

    private static WatchOptions auto() {
        return WatchOptions.defaults().withInitialList(InitialListStrategy.AUTO);
    }

    /**
     * A stub client whose first {@code refusals} streaming lists go to a port where nothing listens: the connection
     * is refused, as while an API server restarts.
     */
    private ApiClient refusingStreamingLists(int refusals) throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        AtomicInteger left = new AtomicInteger(refusals);
        ApiClient client = stub.apiClient();
        client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(chain -> {
            Request request = chain.request();
            boolean refuse = "true".equals(request.url().queryParameter("sendInitialEvents"))
                    && left.getAndDecrement() > 0;
            return chain.proceed(refuse
                    ? request.newBuilder().url(request.url().newBuilder().port(closedPort).build()).build()
                    : request);
        }).build());
        return client;
    }

    /** client-go's curve: the n-th wait in [0.8, 1.6) s · 2ⁿ. */
    private static void assertClientGoCurve(List<Duration> sleeps, int count) {
        assertThat(sleeps).hasSize(count);
        for (int n = 0; n < count; n++) {
            assertBetween(sleeps.get(n), 800L << n, 1_600L << n);
        }
    }

    private static void assertBetween(Duration delay, long fromMillis, long untilMillis) {
        assertThat(delay.toMillis()).as("delay %s", delay).isGreaterThanOrEqualTo(fromMillis).isLessThan(untilMillis);
    }
}
