package dev.watchkeeper.internal.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.leader.LeaderElector;
import dev.watchkeeper.internal.leader.LeaderElectionSettings;
import dev.watchkeeper.test.VirtualTime;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.EventsV1Event;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The Event recorder against an API server (one subclass per server): what it writes, how repeats fold into one
 * Event's series with a bounded number of writes, and the spam filter. Time is virtual, paused at its start: only
 * the test moves it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RecorderScenarios {

    static final Duration WAIT = Duration.ofSeconds(30);

    private final List<EventRecorder> recorders = new ArrayList<>();
    private final VirtualTime time = new VirtualTime();
    private final AtomicInteger writes = new AtomicInteger();

    abstract ApiClient apiClient();

    abstract String namespace();

    @AfterEach
    void closeRecorders() {
        recorders.forEach(EventRecorder::close);
        recorders.clear();
    }

    /** A recorder writing to the server, counting its writes, on the virtual clock paused at its start. */
    EventRecorder recorder(int capacity) {
        time.pauseAt(time.now());
        writes.set(0);
        HttpEventSink server = new HttpEventSink(apiClient(), Reporter.of("watchkeeper-test", "replica-1"));
        EventRecorder recorder = new EventRecorder(write -> {
            server.write(write);
            writes.incrementAndGet();
        }, time, capacity);
        recorders.add(recorder);
        return recorder;
    }

    Occurrence.Regarding configMap(String name) {
        return new Occurrence.Regarding("v1", "ConfigMap", namespace(), name, UUID.randomUUID().toString());
    }

    List<EventsV1Event> eventsAbout(String name) throws ApiException {
        return new EventsV1Api(apiClient()).listNamespacedEvent(namespace()).execute().getItems().stream()
                .filter(event -> name.equals(event.getRegarding().getName())).toList();
    }

    @Test
    void tenThousandIdenticalWarningsInAMinuteAreOneEventWhoseSeriesCountsThemAllInThreeWrites() throws Exception {
        EventRecorder recorder = recorder(10_000);
        Occurrence.Regarding flapping = configMap("flapping");
        Instant start = time.now();

        for (int i = 0; i < 10_000; i++) {
            recorder.record(flapping, "gen", "Warning", "ReconcileFailed", "Reconcile", "HTTP 409 Conflict");
            time.advance(Duration.ofMillis(6)); // 10,000 in one minute
        }
        Instant last = start.plus(Duration.ofMillis(6 * 9_999));

        await().atMost(WAIT).until(() -> recorder.counts().aggregated() == 9_999 && recorder.queued() == 0
                && writes.get() == 2);
        // the first created the Event, the second started its series at once; the rest wait for the heartbeat
        assertThat(eventsAbout("flapping")).singleElement().satisfies(event -> {
            assertThat(event.getType()).isEqualTo("Warning");
            assertThat(event.getReason()).isEqualTo("ReconcileFailed");
            assertThat(event.getAction()).isEqualTo("Reconcile");
            assertThat(event.getNote()).isEqualTo("HTTP 409 Conflict");
            assertThat(event.getReportingController()).isEqualTo("watchkeeper-test/gen");
            assertThat(event.getReportingInstance()).isEqualTo("replica-1");
            assertThat(event.getRegarding().getUid()).isEqualTo(flapping.uid());
            assertThat(event.getEventTime().toInstant()).isEqualTo(start);
            assertThat(event.getSeries().getCount()).isEqualTo(2);
        });

        time.advance(EventSeriesBook.HEARTBEAT); // past the heartbeat after the series started
        await().atMost(WAIT).until(() -> writes.get() == 3);
        assertThat(eventsAbout("flapping")).singleElement().satisfies(event -> {
            assertThat(event.getSeries().getCount()).isEqualTo(10_000);
            assertThat(event.getSeries().getLastObservedTime().toInstant()).isEqualTo(last);
        });

        time.advance(EventSeriesBook.WINDOW); // the series ends; it did not grow since the heartbeat
        await().atMost(WAIT).until(() -> recorder.tracked() == 0);
        assertThat(writes).as("create, series start, one heartbeat: 2 + 1 minute / 6 minutes + 1 at most")
                .hasValue(3);
        assertThat(recorder.counts()).isEqualTo(new EventCounts(3, 9_999, 0, 0, 0));
    }

    @Test
    void distinctReasonsAreDistinctEventsAndTheSpamFilterDropsBeyondTheBurstOfAnObject() throws Exception {
        EventRecorder recorder = recorder(1_000);
        Occurrence.Regarding noisy = configMap("noisy");

        for (int i = 0; i < 30; i++) {
            recorder.record(noisy, "gen", "Normal", "Step" + i, "Reconcile", "step " + i);
        }
        recorder.record(noisy, "gen", "Normal", "Step0", "Reconcile", "step 0");
        recorder.record(configMap("quiet"), "gen", "Normal", "Step0", "Reconcile", "step 0");

        await().atMost(WAIT).until(() -> recorder.queued() == 0 && recorder.counts().written() == 27);
        assertThat(recorder.counts()).isEqualTo(new EventCounts(27, 1, 0, 5, 0));
        assertThat(eventsAbout("noisy")).hasSize(SpamFilter.BURST).extracting(EventsV1Event::getReason)
                .doesNotHaveDuplicates();
        assertThat(eventsAbout("quiet")).hasSize(1);

        time.advance(SpamFilter.REFILL); // one more token
        recorder.record(noisy, "gen", "Normal", "Step40", "Reconcile", "step 40");
        recorder.record(noisy, "gen", "Normal", "Step41", "Reconcile", "step 41");
        await().atMost(WAIT).until(() -> recorder.queued() == 0 && recorder.counts().rateLimited() == 6);
        await().atMost(WAIT).until(() -> eventsAbout("noisy").size() == SpamFilter.BURST + 1);
    }

    @Test
    void leadershipChangesAreEventsOnTheLease() {
        EventRecorder recorder = EventRecorder.create(apiClient(), Reporter.of("watchkeeper-test", "replica-7"),
                TimeSource.system());
        recorders.add(recorder);
        LeaderElector elector = LeaderElector.builder(apiClient(),
                LeaderElectionSettings.of("recorder-leader", namespace(), "replica-7")).build();
        elector.addListener(new LeaseEvents(recorder, elector.settings()));
        elector.start();
        try {
            await().atMost(WAIT).until(() -> notesAbout("recorder-leader").contains("replica-7 became leader"));
        } finally {
            elector.close();
        }
        await().atMost(WAIT).until(() -> notesAbout("recorder-leader").contains("replica-7 stopped leading"));
        assertThat(eventsAboutQuietly("recorder-leader")).allSatisfy(event -> {
            assertThat(event.getRegarding().getKind()).isEqualTo("Lease");
            assertThat(event.getRegarding().getApiVersion()).isEqualTo("coordination.k8s.io/v1");
            assertThat(event.getReason()).isEqualTo("LeaderElection");
            assertThat(event.getReportingController()).isEqualTo("watchkeeper-test/leader-election");
        });
    }

    private List<String> notesAbout(String name) {
        return eventsAboutQuietly(name).stream().map(EventsV1Event::getNote).toList();
    }

    private List<EventsV1Event> eventsAboutQuietly(String name) {
        try {
            return eventsAbout(name);
        } catch (ApiException e) {
            throw new IllegalStateException(e.getCode() + " " + e.getResponseBody(), e);
        }
    }
}
