package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.backoff.BackOffSettings;
import java.time.Duration;

/** Checks property values and names the offending property in the message. */
final class Validation {

    private Validation() {
    }

    static BackOffSettings backOff(String prefix, Duration initial, double multiplier, Duration max, double jitter,
            Duration resetAfter, Duration maxElapsed) {
        positive(prefix + ".initial-interval", initial);
        positive(prefix + ".max-interval", max);
        if (multiplier < 1.0) {
            throw invalid(prefix + ".multiplier", multiplier, "must be at least 1");
        }
        if (max.compareTo(initial) < 0) {
            throw invalid(prefix + ".max-interval", max, "must not be below " + prefix + ".initial-interval ("
                    + initial + ")");
        }
        if (jitter < 0) {
            throw invalid(prefix + ".jitter", jitter, "must not be negative");
        }
        notNegative(prefix + ".reset-after", resetAfter);
        if (maxElapsed != null) {
            notNegative(prefix + ".max-elapsed-time", maxElapsed);
        }
        return new BackOffSettings(initial, multiplier, max, jitter, resetAfter, maxElapsed);
    }

    static void positive(String property, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw invalid(property, value, "must be positive");
        }
    }

    static void notNegative(String property, Duration value) {
        if (value == null || value.isNegative()) {
            throw invalid(property, value, "must not be negative");
        }
    }

    static void atLeast(String property, int value, int minimum) {
        if (value < minimum) {
            throw invalid(property, value, "must be at least " + minimum);
        }
    }

    static IllegalArgumentException invalid(String property, Object value, String rule) {
        return new IllegalArgumentException("Invalid value '" + value + "' for property " + property + ": " + rule);
    }
}
