package dev.watchkeeper.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.core.annotation.AliasFor;

/**
 * Marks a bean method that receives the events of a watcher (or of every watcher of a {@code namespaces} group),
 * by the watcher's name. The one parameter says what it receives:
 * <ul>
 * <li>{@code WatchEvent<T>}: every event ({@code Init}, {@code InitApply}, {@code InitDone}, {@code Apply},
 * {@code Delete}, {@code Failure});</li>
 * <li>one event record, e.g. {@code WatchEvent.Delete<T>}: only those events (a relist reports objects deleted
 * while the watch was down as deletes too, with {@code finalStateUnknown()} set);</li>
 * <li>the object type {@code T}, e.g. {@code V1ConfigMap}: the object of every {@code InitApply} and
 * {@code Apply}.</li>
 * </ul>
 *
 * <pre>{@code
 * @WatchListener("app-config")
 * void onConfig(WatchEvent<V1ConfigMap> event) {
 *     if (event instanceof WatchEvent.Apply<V1ConfigMap> apply) {
 *         reload(apply.object());
 *     }
 * }
 * }</pre>
 *
 * <p>Each method runs on its own thread behind a bounded buffer of {@link #bufferSize()} events, so it never slows
 * the watcher: when the buffer is full the oldest event is dropped, counted and logged (see
 * {@link dev.watchkeeper.internal.watch.BufferedWatchEventListener}). An exception is logged with the watcher's name and
 * the method goes on receiving events. The name may hold {@code ${...}} placeholders; an unknown name fails
 * start-up. Found by the starter.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface WatchListener {

    /** The watcher's name (declared or derived, e.g. {@code app-config} or {@code configmaps@default}). */
    @AliasFor("watcher")
    String value() default "";

    /** Alias of {@link #value()}. */
    @AliasFor("value")
    String watcher() default "";

    /** How many events may wait for this method before the oldest is dropped. */
    int bufferSize() default 1000;
}
