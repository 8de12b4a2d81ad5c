package dev.watchkeeper.watch;

/**
 * Receives a watcher's events on the watcher's thread, in order. A listener that throws (an exception, an
 * {@code AssertionError}, a {@code StackOverflowError}) is logged with the watcher's name and does not disturb the
 * watcher or other listeners. A fatal error (an {@code OutOfMemoryError}, say) stops the
 * watcher: its snapshot turns {@code STOPPED} with the error named as its last error, and the error ends the thread.
 *
 * <pre>{@code
 * watcher.addListener(event -> {
 *     if (event instanceof WatchEvent.Apply<V1ConfigMap> apply) {
 *         log.info("changed: {}", apply.object().getMetadata().getName());
 *     }
 * });
 * }</pre>
 */
@FunctionalInterface
public interface WatchEventListener<T> {

    void onEvent(WatchEvent<T> event);

    /**
     * Whether this listener reads events' objects (their models). Such a listener is only handed objects that
     * decode: an object that does not reaches it as a {@code DecodeFailed} {@link WatchEvent.Failure} instead. A
     * listener that reads only keys and metadata ({@code apply.cached().key()}, {@code .labels()}) answers false; it
     * is handed every object event, and no model is decoded for it.
     */
    default boolean readsObjects() {
        return true;
    }
}
