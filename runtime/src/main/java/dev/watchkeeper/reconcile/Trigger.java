package dev.watchkeeper.reconcile;

import io.kubernetes.client.common.KubernetesObject;

/**
 * Which changes of a primary object start a reconcile. Several together enqueue when any of them matches.
 *
 * <pre>{@code
 * ReconcilerSettings.defaults().withTriggers(Trigger.GENERATION, Trigger.LABELS_ANNOTATIONS);
 * }</pre>
 */
public enum Trigger {

    /** Every added or modified object (level-based; the default). */
    ALL,

    /**
     * Only a changed {@code metadata.generation}, i.e. a spec change: a reconciler that writes status does not
     * wake itself. Resources without a generation (ConfigMaps, say) then reconcile only on creation and resync.
     */
    GENERATION,

    /** Only changed labels or annotations. */
    LABELS_ANNOTATIONS;

    /** This trigger as a filter; {@code null} for {@link #ALL}, which filters nothing. */
    public <T extends KubernetesObject> TriggerFilter<T> filter() {
        return switch (this) {
            case ALL -> null;
            case GENERATION -> TriggerFilter.generationChanged();
            case LABELS_ANNOTATIONS -> TriggerFilter.labelsOrAnnotationsChanged();
        };
    }
}
