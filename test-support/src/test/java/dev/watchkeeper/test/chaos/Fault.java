package dev.watchkeeper.test.chaos;

import java.time.Duration;

/**
 * One scheduled fault: injected just before history change {@code atChange}.
 *
 * @param requests how many requests it hits (5xx, 429, 410 at watch start), else 0
 * @param duration how long it lasts (outage, Retry-After, slow bodies' pause, idle silence), else zero
 */
record Fault(int atChange, FaultKind kind, int requests, Duration duration) {

    @Override
    public String toString() {
        return "#" + atChange + " " + kind + (requests > 0 ? " x" + requests : "")
                + (duration.isZero() ? "" : " " + duration);
    }
}
