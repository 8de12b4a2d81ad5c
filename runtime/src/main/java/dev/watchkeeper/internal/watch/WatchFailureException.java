package dev.watchkeeper.internal.watch;

import dev.watchkeeper.watch.WatchError;

/** A watcher failure as the {@link Throwable} Spring Retry's policies and listeners are handed. */
public final class WatchFailureException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient WatchError error;

    public WatchFailureException(WatchError error) {
        super(error.kind().label() + (error.code() == 0 ? "" : " " + error.code()) + ": " + error.message(), null,
                false, false);
        this.error = error;
    }

    public WatchError error() {
        return error;
    }
}
