package dev.watchkeeper.examples.cronjob;

import java.time.Instant;

/**
 * The runs of a schedule as of now: the latest one missed since the earliest time that counts (the last scheduled
 * run, else the CronJob's creation, moved up to {@code now - startingDeadlineSeconds} when that is later), and the
 * next one. As the original, more than 100 missed runs are refused: the clock is skewed or the deadline too long.
 *
 * <p>The original then asks whether the missed run is past its deadline, which it cannot be: the deadline already
 * bounded the earliest time, so its {@code MissedSchedule} is never reported. Here {@link #late} is the run the
 * deadline made it skip instead (the latest run before the deadline, when none is within it), which the reconciler
 * reports as {@code MissedSchedule}.
 *
 * @param missed the latest missed run within the deadline, or {@code null} when none
 * @param late   when {@code missed} is {@code null}, the latest run since the last schedule that the deadline
 *               excluded, or {@code null} when none
 * @param next   the next run after now
 */
record ScheduledRuns(Instant missed, Instant late, Instant next) {

    static final int MAX_MISSED = 100;

    /**
     * @throws IllegalArgumentException when there are more than {@value #MAX_MISSED} missed runs, or the schedule
     *                                  names no next run
     */
    static ScheduledRuns of(CronSchedule schedule, Instant lastScheduled, Instant created, Long deadlineSeconds,
            Instant now) {
        Instant since = lastScheduled != null ? lastScheduled : created;
        Instant earliest = since;
        if (deadlineSeconds != null) {
            Instant schedulingDeadline = now.minusSeconds(deadlineSeconds);
            if (schedulingDeadline.isAfter(earliest)) {
                earliest = schedulingDeadline;
            }
        }
        Instant next = schedule.next(now);
        if (earliest.isAfter(now)) {
            return new ScheduledRuns(null, null, next);
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
        Instant late = missed == null && earliest.isAfter(since) ? latestRun(schedule, since, earliest) : null;
        return new ScheduledRuns(missed, late, next);
    }

    /**
     * The latest run in {@code (after, until]}, or {@code null}. It looks back from {@code until} over a span that
     * doubles until the span holds a run, then steps through the span: a gap of a year costs some thirty looks, not a
     * step per run.
     */
    static Instant latestRun(CronSchedule schedule, Instant after, Instant until) {
        Instant from;
        long back = 1;
        do {
            from = until.minusSeconds(back);
            if (!from.isAfter(after)) {
                from = after;
            }
            back *= 2;
        } while (from.isAfter(after) && schedule.next(from).isAfter(until));
        Instant latest = null;
        for (Instant run = schedule.next(from); !run.isAfter(until); run = schedule.next(run)) {
            latest = run;
        }
        return latest;
    }
}
