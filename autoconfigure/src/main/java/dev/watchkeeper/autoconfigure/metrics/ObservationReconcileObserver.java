package dev.watchkeeper.autoconfigure.metrics;

import dev.watchkeeper.autoconfigure.metrics.ReconcileObservationContext.Outcome;
import dev.watchkeeper.internal.reconcile.ReconcileObserver;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.internal.reconcile.ReconcileTimeoutException;
import dev.watchkeeper.store.ObjectKey;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * Runs every reconcile inside a Micrometer {@link Observation}, named and tagged by a
 * {@link ReconcileObservationConvention} ({@link DefaultReconcileObservationConvention} unless the application
 * gives one). With Boot's default handlers this is the {@code watchkeeper.reconcile} timer, and a span when tracing
 * is present. The observation is in scope on the worker thread while the reconcile runs, so what the reconcile
 * observes (the API calls it makes, through an observed {@code ApiClient}) are its children.
 */
public class ObservationReconcileObserver implements ReconcileObserver {

    private static final ReconcileObservationConvention DEFAULT = new DefaultReconcileObservationConvention();

    private final ObservationRegistry observations;
    private final ReconcileObservationConvention convention;
    private final Function<String, String> resources;

    /**
     * @param convention the application's, or {@code null} for the default
     * @param resources  a reconciler's name to its primary resource, for the tag
     */
    public ObservationReconcileObserver(ObservationRegistry observations, ReconcileObservationConvention convention,
            Function<String, String> resources) {
        this.observations = observations;
        this.convention = convention;
        this.resources = resources;
    }

    @Override
    public <R> R observe(String reconciler, ObjectKey key, Callable<R> reconcile) throws Exception {
        ReconcileObservationContext context = new ReconcileObservationContext(reconciler, key,
                resources.apply(reconciler));
        Observation observation = Observation.createNotStarted(convention, DEFAULT, () -> context, observations)
                .start();
        try (Observation.Scope scope = observation.openScope()) {
            R result = reconcile.call();
            context.outcome(result instanceof ReconcileResult r && r.isRequeue() ? Outcome.REQUEUE : Outcome.DONE);
            return result;
        } catch (Exception | Error e) {
            context.outcome(e instanceof ReconcileTimeoutException ? Outcome.TIMEOUT : Outcome.ERROR);
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
        }
    }
}
