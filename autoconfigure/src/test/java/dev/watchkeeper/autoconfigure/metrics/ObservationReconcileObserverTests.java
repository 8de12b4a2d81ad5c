package dev.watchkeeper.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.watchkeeper.internal.reconcile.ReconcileTimeoutException;
import dev.watchkeeper.store.ObjectKey;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The {@code result} key tells a timed-out reconcile from one that failed otherwise. */
class ObservationReconcileObserverTests {

    private final List<String> results = new CopyOnWriteArrayList<>();
    private final ObservationReconcileObserver observer = new ObservationReconcileObserver(registry(), null, name -> "configmaps");

    @Test
    void aReconcileThatRanPastItsTimeoutIsTaggedTimeoutAndOtherFailuresError() {
        ObjectKey key = new ObjectKey("default", "a");

        assertThatThrownBy(() -> observer.observe("mirror", key, () -> {
            throw new ReconcileTimeoutException(Duration.ofSeconds(30), new InterruptedException());
        })).isInstanceOf(ReconcileTimeoutException.class);
        assertThatThrownBy(() -> observer.observe("mirror", key, () -> {
            throw new IllegalStateException("boom");
        })).isInstanceOf(IllegalStateException.class);

        assertThat(results).containsExactly("timeout", "error");
    }

    private ObservationRegistry registry() {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }

            @Override
            public void onStop(Observation.Context context) {
                results.add(context.getLowCardinalityKeyValue("result").getValue());
            }
        });
        return registry;
    }
}
