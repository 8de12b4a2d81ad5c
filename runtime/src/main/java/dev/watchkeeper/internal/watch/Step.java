package dev.watchkeeper.internal.watch;

import dev.watchkeeper.watch.WatchError;
import dev.watchkeeper.watch.WatchEvent;
import java.util.List;

/**
 * What one step of the state machine produced: events to deliver, the next state, and whether the driver must
 * back off before the next step.
 *
 * @param events  events in order, possibly none
 * @param next    the state for the next step
 * @param outcome how the driver proceeds
 * @param error   the failure behind a {@link Outcome#BACK_OFF}, else {@code null}
 */
public record Step<T>(List<WatchEvent<T>> events, WatchState<T> next, Outcome outcome, WatchError error) {

    /** How the driver proceeds after a step. */
    public enum Outcome {
        /** The server answered with data (a list page, a watch event): a failure streak is over. */
        PROGRESS,
        /** Go on at once; nothing was learned about the server's health. */
        CONTINUE,
        /** A failure: wait as the backoff policy says, then take the next step. */
        BACK_OFF
    }

    static <T> Step<T> progress(List<WatchEvent<T>> events, WatchState<T> next) {
        return new Step<>(events, next, Outcome.PROGRESS, null);
    }

    static <T> Step<T> proceed(List<WatchEvent<T>> events, WatchState<T> next) {
        return new Step<>(events, next, Outcome.CONTINUE, null);
    }

    static <T> Step<T> backOff(WatchError error, WatchState<T> next) {
        return new Step<>(List.of(new WatchEvent.Failure<>(error)), next, Outcome.BACK_OFF, error);
    }
}
