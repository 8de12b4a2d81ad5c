package dev.watchkeeper.reconcile;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Objects;
import java.util.function.Function;

/**
 * Decides whether a change of a primary object is worth a reconcile, given the version the reconciler saw before
 * ({@code null} when it sees the object for the first time) and the new one. Deletes and periodic resyncs are
 * not filtered.
 *
 * <pre>{@code
 * TriggerFilter<Generator> specOrPaused = TriggerFilter.<Generator>generationChanged()
 *         .or((previous, current) -> previous.getSpec().isPaused() != current.getSpec().isPaused());
 * }</pre>
 */
@FunctionalInterface
public interface TriggerFilter<T extends KubernetesObject> {

    /** Whether to reconcile after {@code previous} (null = first seen) became {@code current}. */
    boolean shouldReconcile(T previous, T current);

    /** Reconciles when either filter says so. */
    default TriggerFilter<T> or(TriggerFilter<T> other) {
        Objects.requireNonNull(other, "other");
        return (previous, current) -> shouldReconcile(previous, current) || other.shouldReconcile(previous, current);
    }

    /** Reconciles when {@code metadata.generation} changed (the spec, for resources that have a generation). */
    static <T extends KubernetesObject> TriggerFilter<T> generationChanged() {
        return changed(V1ObjectMeta::getGeneration);
    }

    /** Reconciles when labels or annotations changed. */
    static <T extends KubernetesObject> TriggerFilter<T> labelsOrAnnotationsChanged() {
        TriggerFilter<T> labels = changed(V1ObjectMeta::getLabels);
        return labels.or(changed(V1ObjectMeta::getAnnotations));
    }

    /**
     * Reconciles when {@code metadata.deletionTimestamp} appeared: added to the filter of a reconciler with a
     * {@code Finalizer}, so its cleanup runs even when a deletion changes nothing else the filter looks at.
     */
    static <T extends KubernetesObject> TriggerFilter<T> deletionStarted() {
        return changed(V1ObjectMeta::getDeletionTimestamp);
    }

    private static <T extends KubernetesObject> TriggerFilter<T> changed(Function<V1ObjectMeta, Object> field) {
        return (previous, current) -> previous == null || !Objects.equals(read(previous, field), read(current, field));
    }

    private static Object read(KubernetesObject object, Function<V1ObjectMeta, Object> field) {
        V1ObjectMeta metadata = object.getMetadata();
        return metadata == null ? null : field.apply(metadata);
    }
}
