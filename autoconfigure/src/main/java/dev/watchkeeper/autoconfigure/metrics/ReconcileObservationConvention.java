package dev.watchkeeper.autoconfigure.metrics;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The name and tags of the observation of each reconcile. A bean of this type replaces
 * {@link DefaultReconcileObservationConvention}; extend that one to add or change a tag:
 *
 * <pre>{@code
 * @Bean
 * ReconcileObservationConvention reconcileObservationConvention() {
 *     return new DefaultReconcileObservationConvention() {
 *         @Override
 *         public KeyValues getLowCardinalityKeyValues(ReconcileObservationContext context) {
 *             return super.getLowCardinalityKeyValues(context).and("team", "platform");
 *         }
 *     };
 * }
 * }</pre>
 */
public interface ReconcileObservationConvention extends ObservationConvention<ReconcileObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof ReconcileObservationContext;
    }
}
