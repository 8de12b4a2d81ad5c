package dev.watchkeeper.autoconfigure.metrics;

import dev.watchkeeper.reconcile.ReconcileObserver;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.ReconcileTimeoutException;
import dev.watchkeeper.store.ObjectKey;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.concurrent.Callable;

/**
 * Runs every reconcile inside a Micrometer {@link Observation} named {@code watchkeeper.reconcile}, with low
 * cardinality keys {@code reconciler} and {@code result} ({@code done}, {@code requeue}, {@code error}, or
 * {@code timeout} for a reconcile that ran past its reconciler's timeout), and the
 * object's key as a high-cardinality key. With Boot's default handlers this is the {@code watchkeeper.reconcile}
 * timer, and a span when tracing is present.
 */
public class ObservationReconcileObserver implements ReconcileObserver {

    private final ObservationRegistry observations;

    public ObservationReconcileObserver(ObservationRegistry observations) {
        this.observations = observations;
    }

    @Override
    public <R> R observe(String reconciler, ObjectKey key, Callable<R> reconcile) throws Exception {
        Observation observation = Observation.createNotStarted("watchkeeper.reconcile", observations)
                .contextualName("reconcile " + reconciler)
                .lowCardinalityKeyValue("reconciler", reconciler)
                .highCardinalityKeyValue("key", key.toString())
                .start();
        try (Observation.Scope scope = observation.openScope()) {
            R result = reconcile.call();
            observation.lowCardinalityKeyValue("result",
                    result instanceof ReconcileResult r && r.isRequeue() ? "requeue" : "done");
            return result;
        } catch (Exception | Error e) {
            observation.lowCardinalityKeyValue("result", e instanceof ReconcileTimeoutException ? "timeout" : "error");
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
        }
    }
}
