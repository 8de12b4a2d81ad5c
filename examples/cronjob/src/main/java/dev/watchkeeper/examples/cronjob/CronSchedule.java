package dev.watchkeeper.examples.cronjob;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import org.springframework.scheduling.support.CronExpression;

/**
 * A CronJob's schedule, read as the original's parser ({@code cron.ParseStandard}) reads it: five fields (minute,
 * hour, day of month, month, day of week) in UTC, a descriptor ({@code @yearly}, {@code @monthly}, {@code @weekly},
 * {@code @daily}, {@code @midnight}, {@code @hourly}), or {@code @every <duration>} ({@code 90s}, {@code 1h30m}).
 * The five fields are Spring's {@link CronExpression} with a seconds field of {@code 0} in front.
 */
sealed interface CronSchedule {

    /** The first time after {@code after} the schedule names. */
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
        String expression = spec.startsWith("@") ? spec : fiveFields(spec);
        try {
            return new Cron(CronExpression.parse(expression));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static String fiveFields(String spec) {
        int fields = spec.split("\\s+").length;
        if (fields != 5) {
            throw new IllegalArgumentException("expected exactly 5 fields, found " + fields + ": " + spec);
        }
        return "0 " + spec;
    }

    private static Duration every(String text) {
        try {
            Duration interval = Duration.parse("PT" + text.toUpperCase(java.util.Locale.ROOT));
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("@every needs a positive interval, not " + text);
            }
            return interval;
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("failed to parse duration @every " + text, e);
        }
    }

    /** Five fields or a descriptor. */
    record Cron(CronExpression expression) implements CronSchedule {
        @Override
        public Instant next(Instant after) {
            return expression.next(after.atZone(ZoneOffset.UTC)).toInstant();
        }
    }

    /** {@code @every}: a fixed interval, as the original's, rounded to whole seconds. */
    record Every(Duration interval) implements CronSchedule {
        @Override
        public Instant next(Instant after) {
            long seconds = Math.max(1, interval.toSeconds());
            return after.plusSeconds(seconds).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        }
    }
}
