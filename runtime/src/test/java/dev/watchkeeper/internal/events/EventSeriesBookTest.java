package dev.watchkeeper.internal.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventSeriesBookTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final Occurrence.Regarding A = new Occurrence.Regarding("v1", "ConfigMap", "ns", "a", "uid-a");

    private final EventSeriesBook book = new EventSeriesBook();
    private final List<EventWrite> writes = new ArrayList<>();

    private EventSeriesBook.Outcome observe(Occurrence.Regarding regarding, String reason, Instant at) {
        return book.observe(new Occurrence(regarding, "Warning", reason, "Reconcile", "failed", "gen", at), writes);
    }

    @Test
    void theFirstCreatesTheSecondStartsTheSeriesAndTheRestWaitForTheHeartbeatAndTheEnd() {
        assertThat(observe(A, "Failed", START)).isEqualTo(EventSeriesBook.Outcome.NEW);
        assertThat(writes).singleElement().isInstanceOf(EventWrite.Create.class);
        String name = writes.get(0).name();
        assertThat(name).startsWith("a.");
        assertThat(writes.get(0).namespace()).isEqualTo("ns");

        assertThat(observe(A, "Failed", START.plusSeconds(1))).isEqualTo(EventSeriesBook.Outcome.AGGREGATED);
        assertThat(writes).hasSize(2).last().isEqualTo(
                new EventWrite.Series(writes.get(0).first(), "ns", name, 2, START.plusSeconds(1)));

        for (int i = 2; i < 100; i++) {
            assertThat(observe(A, "Failed", START.plusSeconds(i))).isEqualTo(EventSeriesBook.Outcome.AGGREGATED);
        }
        book.due(START.plusSeconds(100), writes);
        assertThat(writes).as("before the heartbeat nothing more is written").hasSize(2);
        assertThat(book.nextDue()).isEqualTo(START.plusSeconds(1).plus(EventSeriesBook.HEARTBEAT));

        book.due(START.plusSeconds(1).plus(EventSeriesBook.HEARTBEAT), writes);
        assertThat(writes).hasSize(3).last().satisfies(write -> {
            assertThat(((EventWrite.Series) write).count()).isEqualTo(100);
            assertThat(((EventWrite.Series) write).lastObserved()).isEqualTo(START.plusSeconds(99));
        });

        observe(A, "Failed", START.plusSeconds(400));
        Instant end = START.plusSeconds(400).plus(EventSeriesBook.WINDOW);
        assertThat(book.nextDue()).as("the series grew: the next heartbeat comes before its end")
                .isEqualTo(START.plusSeconds(1).plus(EventSeriesBook.HEARTBEAT).plus(EventSeriesBook.HEARTBEAT));
        book.due(end, writes);
        assertThat(writes).hasSize(4).last().extracting(write -> ((EventWrite.Series) write).count()).isEqualTo(101);
        assertThat(book.tracked()).as("ended").isZero();

        assertThat(observe(A, "Failed", end.plusSeconds(1))).as("after the window, a new Event")
                .isEqualTo(EventSeriesBook.Outcome.NEW);
        assertThat(writes).last().isInstanceOf(EventWrite.Create.class);
        assertThat(writes.get(writes.size() - 1).name()).isNotEqualTo(name);
    }

    @Test
    void distinctReasonsAreDistinctEventsAndTheSpamFilterAllowsTwentyFiveThenOneEveryFiveMinutes() {
        for (int i = 0; i < SpamFilter.BURST; i++) {
            assertThat(observe(A, "Reason" + i, START)).isEqualTo(EventSeriesBook.Outcome.NEW);
        }
        assertThat(writes).hasSize(SpamFilter.BURST).extracting(EventWrite::name).doesNotHaveDuplicates();
        assertThat(observe(A, "Reason25", START)).isEqualTo(EventSeriesBook.Outcome.RATE_LIMITED);
        assertThat(observe(A, "Reason0", START)).as("a repeat counts in its series, whatever the bucket says")
                .isEqualTo(EventSeriesBook.Outcome.AGGREGATED);
        Occurrence.Regarding b = new Occurrence.Regarding("v1", "ConfigMap", "ns", "b", "uid-b");
        assertThat(observe(b, "Reason0", START)).as("another object has a bucket of its own")
                .isEqualTo(EventSeriesBook.Outcome.NEW);

        assertThat(observe(A, "Reason26", START.plus(SpamFilter.REFILL).minusSeconds(1)))
                .isEqualTo(EventSeriesBook.Outcome.RATE_LIMITED);
        assertThat(observe(A, "Reason27", START.plus(SpamFilter.REFILL))).isEqualTo(EventSeriesBook.Outcome.NEW);
        assertThat(observe(A, "Reason28", START.plus(SpamFilter.REFILL)))
                .isEqualTo(EventSeriesBook.Outcome.RATE_LIMITED);
    }

    @Test
    void eventsAboutClusterScopedObjectsLiveInDefaultAndNamesStayUniqueOnAFrozenClock() {
        Occurrence.Regarding node = new Occurrence.Regarding("v1", "Node", null, "n1", "uid-n");
        observe(node, "One", START);
        observe(node, "Two", START);
        assertThat(writes).extracting(EventWrite::namespace).containsOnly("default");
        assertThat(writes).extracting(EventWrite::name).doesNotHaveDuplicates();
    }

    @Test
    void closingEndsEverySeriesThatGrew() {
        observe(A, "Failed", START);
        observe(A, "Failed", START.plusSeconds(1));
        observe(A, "Failed", START.plusSeconds(2));
        observe(A, "Once", START);
        writes.clear();

        book.endAll(writes);

        assertThat(writes).singleElement().extracting(write -> ((EventWrite.Series) write).count()).isEqualTo(3);
        assertThat(book.tracked()).isZero();
        assertThat(book.nextDue()).isNull();
    }

    @Test
    void theReporterMakesNamesTheApiServerAccepts() {
        Reporter reporter = Reporter.of("My App!", "x".repeat(200));
        assertThat(reporter.application()).isEqualTo("my-app");
        assertThat(reporter.instance()).hasSize(128);
        assertThat(reporter.controller("configMapGenerator")).isEqualTo("my-app/configMapGenerator");
        assertThat(reporter.controller("a b/c")).isEqualTo("my-app/a-b-c");
        assertThat(HttpEventSink.note("é".repeat(600))).as("1024 bytes of UTF-8").hasSize(512);
    }
}
