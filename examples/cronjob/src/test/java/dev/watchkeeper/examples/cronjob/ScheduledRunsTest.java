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
    void theRunTheDeadlineMadeItSkipIsLate() {
        // Hourly, 10 minutes to start: at 12:30 the 12:00 run is 30 minutes late, and 11:00 is older still.
        ScheduledRuns runs = ScheduledRuns.of(CronSchedule.parse("0 * * * *"), null, CREATED, 600L,
                Instant.parse("2026-01-01T12:30:00Z"));
        assertThat(runs.missed()).isNull();
        assertThat(runs.late()).isEqualTo(Instant.parse("2026-01-01T12:00:00Z"));
        assertThat(runs.next()).isEqualTo(Instant.parse("2026-01-01T13:00:00Z"));

        assertThat(ScheduledRuns.of(CronSchedule.parse("0 * * * *"), null, CREATED, 600L,
                Instant.parse("2026-01-01T12:05:00Z")).late()).as("12:00 may still start").isNull();
        assertThat(ScheduledRuns.of(CronSchedule.parse("0 * * * *"), Instant.parse("2026-01-01T12:00:00Z"), CREATED,
                600L, Instant.parse("2026-01-01T12:30:00Z")).late()).as("12:00 ran").isNull();
        assertThat(ScheduledRuns.of(CronSchedule.parse("0 * * * *"), null, CREATED, null,
                Instant.parse("2026-01-01T12:30:00Z")).late()).as("no deadline").isNull();
    }

    @Test
    void theLatestRunIsFoundAcrossALongGap() {
        // Every minute, last run a year ago: the run at 10:00 is the latest before 10:00:15.
        Instant until = Instant.parse("2027-01-01T10:00:15Z");
        assertThat(ScheduledRuns.latestRun(CronSchedule.parse("* * * * *"), CREATED, until))
                .isEqualTo(Instant.parse("2027-01-01T10:00:00Z"));
        assertThat(ScheduledRuns.latestRun(CronSchedule.parse("0 0 1 1 *"), CREATED, until))
                .isEqualTo(Instant.parse("2027-01-01T00:00:00Z"));
        assertThat(ScheduledRuns.latestRun(CronSchedule.parse("0 0 1 1 *"), CREATED,
                Instant.parse("2026-12-31T23:59:59Z"))).as("none after the creation").isNull();
        assertThat(ScheduledRuns.of(CronSchedule.parse("* * * * *"), CREATED, CREATED, 10L, until).late())
                .isEqualTo(Instant.parse("2027-01-01T10:00:00Z"));
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
        assertThatThrownBy(() -> CronSchedule.parse("0 0 30 2 *").next(CREATED))
                .hasMessageContaining("names no time after");
    }

    @Test
    void aDayMatchesItsDateOrItsWeekdayWhenBothAreRestricted() {
        // The 13th or a Monday: from Thursday the 1st, Monday the 5th; from Monday the 12th, Tuesday the 13th.
        assertThat(CronSchedule.parse("0 0 13 * 1").next(CREATED)).isEqualTo(Instant.parse("2026-01-05T00:00:00Z"));
        assertThat(CronSchedule.parse("0 0 13 * 1").next(Instant.parse("2026-01-12T01:00:00Z")))
                .isEqualTo(Instant.parse("2026-01-13T00:00:00Z"));
        // A field starting with * is no restriction: odd days that are Mondays, as cron reads it.
        assertThat(CronSchedule.parse("0 0 */2 * 1").next(CREATED)).isEqualTo(Instant.parse("2026-01-05T00:00:00Z"));
        assertThatThrownBy(() -> CronSchedule.parse("0 0 13 * 8")).isInstanceOf(IllegalArgumentException.class);
    }
}
