package dev.watchkeeper.readme;

import dev.watchkeeper.autoconfigure.metrics.DefaultReconcileObservationConvention;
import dev.watchkeeper.autoconfigure.metrics.ReconcileObservationContext;
import dev.watchkeeper.autoconfigure.metrics.ReconcileObservationConvention;
import io.micrometer.common.KeyValues;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The observation convention snippet of docs/operations.md. Compiled, not started. */
@Configuration(proxyBeanMethods = false)
class Observations {

    // tag::convention[]
    @Bean
    ReconcileObservationConvention reconcileObservationConvention() {
        return new DefaultReconcileObservationConvention() {
            @Override
            public KeyValues getLowCardinalityKeyValues(ReconcileObservationContext context) {
                return super.getLowCardinalityKeyValues(context).and("team", "platform");
            }
        };
    }
    // end::convention[]
}
