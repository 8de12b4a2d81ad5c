package dev.watchkeeper.examples.cronjob;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import org.springframework.scheduling.support.CronExpression;

/**
 * A CronJob's schedule, read as the original's parser ({@code cron.ParseStandard}) reads it: five fields (minute,
 * hour, day of month, month, day of week) in UTC, a descriptor ({@code @yearly}, {@code @monthly}, {@code @weekly},
 * {@code @daily}, {@code @midnight}, {@code @hourly}), or {@code @every <duration>} ({@code 90s}, {@code 1h30m}).
 * The five fields are Spring's {@link CronExpression} with a seconds field of {@code 0} in front. As in cron, a day
 * matches when it matches the day of month <em>or</em> the day of week once both are restricted (neither starts with
 * {@code *} or {@code ?}); Spring alone would need both. Spring's extensions ({@code L}, {@code W}, {@code #}) are
 * accepted too.
 */
sealed interface CronSchedule {

    /**
     * The first time after {@code after} the schedule names.
     *
     * @throws IllegalArgumentException when it names none (February 30th)
     */
    Instant next(Instant after);

    /**
     * @throws IllegalArgumentException when {@code text} is no schedule, with why
     */
    static CronSchedule parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty spec string");
        }
        String spec = text.strip();
        if (spec.startsWith("@every ")) {
            return new Every(every(spec.substring("@every ".length()).strip()));
        }
        if (spec.startsWith("@")) {
            return cron(spec);
        }
        String[] fields = spec.split("\\s+");
        if (fields.length != 5) {
            throw new IllegalArgumentException("expected exactly 5 fields, found " + fields.length + ": " + spec);
        }
        if (restricted(fields[2]) && restricted(fields[4])) {
            return new EitherDay(cron(String.join(" ", "0", fields[0], fields[1], fields[2], fields[3], "*")),
                    cron(String.join(" ", "0", fields[0], fields[1], "*", fields[3], fields[4])));
        }
        return cron("0 " + spec);
    }

    private static boolean restricted(String field) {
        return !field.startsWith("*") && !field.startsWith("?");
    }

    private static Cron cron(String expression) {
        try {
            return new Cron(CronExpression.parse(expression));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static Duration every(String text) {
        Duration interval;
        try {
            interval = Duration.parse("PT" + text.toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("failed to parse duration @every " + text, e);
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("@every needs a positive interval, not " + text);
        }
        return interval;
    }

    private static Instant named(Instant next, Instant after) {
        if (next == null) {
            throw new IllegalArgumentException("the schedule names no time after " + after);
        }
        return next;
    }

    /** Five fields or a descriptor. */
    record Cron(CronExpression expression) implements CronSchedule {
        @Override
        public Instant next(Instant after) {
            return named(nextOrNull(after), after);
        }

        Instant nextOrNull(Instant after) {
            ZonedDateTime next = expression.next(after.atZone(ZoneOffset.UTC));
            return next == null ? null : next.toInstant();
        }
    }

    /** Both day fields restricted: the earlier of the next time by day of month and the next by day of week. */
    record EitherDay(Cron dayOfMonth, Cron dayOfWeek) implements CronSchedule {
        @Override
        public Instant next(Instant after) {
            Instant byDate = dayOfMonth.nextOrNull(after);
            Instant byWeekday = dayOfWeek.nextOrNull(after);
            if (byDate == null || byWeekday == null) {
                return named(byDate == null ? byWeekday : byDate, after);
            }
            return byDate.isBefore(byWeekday) ? byDate : byWeekday;
        }
    }

    /** {@code @every}: a fixed interval from the last whole second, as the original's, of at least a second. */
    record Every(Duration interval) implements CronSchedule {
        @Override
        public Instant next(Instant after) {
            return after.truncatedTo(ChronoUnit.SECONDS).plusSeconds(Math.max(1, interval.toSeconds()));
        }
    }
}
