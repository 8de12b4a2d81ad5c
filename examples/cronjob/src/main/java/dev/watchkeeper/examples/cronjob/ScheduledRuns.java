package dev.watchkeeper.examples.cronjob;

import java.time.Duration;
import java.time.Instant;

/**
 * The runs of a schedule as of now: the latest one missed since the earliest time that counts (the last scheduled
 * run, else the CronJob's creation, moved up to {@code now - startingDeadlineSeconds} when that is later), and the
 * next one. As the original, more than 100 missed runs are refused: the clock is skewed or the deadline too long.
 *
 * @param missed the latest missed run, or {@code null} when none
 * @param next   the next run after now
 */
record ScheduledRuns(Instant missed, Instant next) {

    static final int MAX_MISSED = 100;

    /**
     * @throws IllegalArgumentException when there are more than {@value #MAX_MISSED} missed runs
     */
    static ScheduledRuns of(CronSchedule schedule, Instant lastScheduled, Instant created, Long deadlineSeconds,
            Instant now) {
        Instant earliest = lastScheduled != null ? lastScheduled : created;
        if (deadlineSeconds != null) {
            Instant schedulingDeadline = now.minus(Duration.ofSeconds(deadlineSeconds));
            if (schedulingDeadline.isAfter(earliest)) {
                earliest = schedulingDeadline;
            }
        }
        if (earliest.isAfter(now)) {
            return new ScheduledRuns(null, schedule.next(now));
        }
        Instant missed = null;
        int starts = 0;
        for (Instant run = schedule.next(earliest); !run.isAfter(now); run = schedule.next(run)) {
            missed = run;
            if (++starts > MAX_MISSED) {
                throw new IllegalArgumentException("Too many missed start times (> " + MAX_MISSED + "). Set or"
                        + " decrease .spec.startingDeadlineSeconds or check clock skew.");
            }
        }
        return new ScheduledRuns(missed, schedule.next(now));
    }
}
