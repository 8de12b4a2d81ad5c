package dev.watchkeeper.examples.cronjob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The schedule and the runs it names, without Kubernetes. */
class ScheduledRunsTest {

    private static final Instant CREATED = Instant.parse("2026-01-01T10:00:30Z");

    @Test
    void theLatestMissedRunSinceTheLastScheduleAndTheNextOne() {
        ScheduledRuns runs = ScheduledRuns.of(CronSchedule.parse("*/5 * * * *"), null, CREATED, null,
                Instant.parse("2026-01-01T10:17:00Z"));
        assertThat(runs.missed()).isEqualTo(Instant.parse("2026-01-01T10:15:00Z"));
        assertThat(runs.next()).isEqualTo(Instant.parse("2026-01-01T10:20:00Z"));

        ScheduledRuns since = ScheduledRuns.of(CronSchedule.parse("*/5 * * * *"),
                Instant.parse("2026-01-01T10:15:00Z"), CREATED, null, Instant.parse("2026-01-01T10:19:59Z"));
        assertThat(since.missed()).isNull();
        assertThat(since.next()).isEqualTo(Instant.parse("2026-01-01T10:20:00Z"));
    }

    @Test
    void aStartingDeadlineMovesTheEarliestTimeThatCounts() {
        ScheduledRuns runs = ScheduledRuns.of(CronSchedule.parse("0 * * * *"), null, CREATED, 600L,
                Instant.parse("2026-01-01T12:30:00Z"));
        assertThat(runs.missed()).as("12:00 is more than 10 minutes ago").isNull();
        assertThat(ScheduledRuns.of(CronSchedule.parse("0 * * * *"), null, CREATED, 600L,
                Instant.parse("2026-01-01T12:05:00Z")).missed()).isEqualTo(Instant.parse("2026-01-01T12:00:00Z"));
    }

    @Test
    void moreThanAHundredMissedRunsAreRefused() {
        assertThatThrownBy(() -> ScheduledRuns.of(CronSchedule.parse("* * * * *"), null, CREATED, null,
                CREATED.plusSeconds(101 * 60)))
                .hasMessage("Too many missed start times (> 100). Set or decrease .spec.startingDeadlineSeconds or"
                        + " check clock skew.");
        assertThat(ScheduledRuns.of(CronSchedule.parse("* * * * *"), null, CREATED, 3600L,
                CREATED.plusSeconds(101 * 60)).missed()).as("a deadline keeps it within bounds").isNotNull();
    }

    @Test
    void descriptorsEveryAndBadSchedules() {
        assertThat(CronSchedule.parse("@hourly").next(CREATED)).isEqualTo(Instant.parse("2026-01-01T11:00:00Z"));
        assertThat(CronSchedule.parse("@every 90s").next(CREATED)).isEqualTo(Instant.parse("2026-01-01T10:02:00Z"));
        assertThat(CronSchedule.parse("@every 1h30m").next(CREATED)).isEqualTo(Instant.parse("2026-01-01T11:30:30Z"));
        assertThatThrownBy(() -> CronSchedule.parse("1 * * *")).hasMessageContaining("expected exactly 5 fields");
        assertThatThrownBy(() -> CronSchedule.parse("61 * * * *")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CronSchedule.parse("@every soon")).hasMessageContaining("@every soon");
        assertThatThrownBy(() -> CronSchedule.parse(" ")).hasMessage("empty spec string");
    }
}
