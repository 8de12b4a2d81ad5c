package dev.watchkeeper.autoconfigure.metrics;

import io.micrometer.common.KeyValues;
import java.util.Locale;

/**
 * {@code watchkeeper.reconcile}, named {@code reconcile <reconciler>} in a trace, with the low-cardinality tags
 * {@code reconciler}, {@code resource} and {@code result} ({@code done}, {@code requeue}, {@code error},
 * {@code timeout} when it ran past its reconciler's timeout; {@code none} while it runs) and the high-cardinality
 * ones {@code namespace} ({@code none} for a cluster-scoped object) and {@code name}.
 */
public class DefaultReconcileObservationConvention implements ReconcileObservationConvention {

    /** The observation's name: a timer of this name with Boot's default handlers. */
    public static final String NAME = "watchkeeper.reconcile";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(ReconcileObservationContext context) {
        return "reconcile " + context.reconciler();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(ReconcileObservationContext context) {
        ReconcileObservationContext.Outcome outcome = context.outcome();
        return KeyValues.of("reconciler", context.reconciler(), "resource", context.resource(), "result",
                outcome == null ? "none" : outcome.name().toLowerCase(Locale.ROOT));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(ReconcileObservationContext context) {
        String namespace = context.key().namespace();
        return KeyValues.of("namespace", namespace == null || namespace.isEmpty() ? "none" : namespace,
                "name", context.key().name());
    }
}
