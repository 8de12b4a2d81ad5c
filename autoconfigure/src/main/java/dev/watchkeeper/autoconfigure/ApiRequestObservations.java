package dev.watchkeeper.autoconfigure;

import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.binder.okhttp3.OkHttpObservationInterceptor;
import io.micrometer.observation.ObservationRegistry;
import okhttp3.Request;
import okhttp3.Response;
import org.springframework.core.Ordered;

/**
 * Observes every request of the {@code ApiClient} ({@code watchkeeper.api.requests}, Micrometer's OkHttp
 * observation): a timer, and a span whose parent is whatever observation is in scope on the calling thread, so a
 * reconcile's API calls are children of its observation. Tags: Micrometer's ({@code method}, {@code status},
 * {@code outcome}, ...), {@code uri} as a template of the API path ({@link ApiPaths}), and the API server's
 * priority-and-fairness answer: {@code apf.flow-schema} and {@code apf.priority-level}, the UIDs of the FlowSchema
 * and PriorityLevelConfiguration that classified the request, {@code none} when the server did not say. Runs after
 * the application's customizers, so a client they replace is observed too.
 */
final class ApiRequestObservations implements ApiClientCustomizer, Ordered {

    /** The observation's name. */
    static final String NAME = "watchkeeper.api.requests";

    static final String FLOW_SCHEMA_HEADER = "X-Kubernetes-PF-FlowSchema-UID";
    static final String PRIORITY_LEVEL_HEADER = "X-Kubernetes-PF-PriorityLevel-UID";

    private final ObservationRegistry observations;

    ApiRequestObservations(ObservationRegistry observations) {
        this.observations = observations;
    }

    @Override
    public void customize(ApiClient client) {
        OkHttpObservationInterceptor interceptor = OkHttpObservationInterceptor.builder(observations, NAME)
                .uriMapper(request -> ApiPaths.template(request.url().encodedPath()))
                .tag((request, response) -> header(response, "apf.flow-schema", FLOW_SCHEMA_HEADER))
                .tag((request, response) -> header(response, "apf.priority-level", PRIORITY_LEVEL_HEADER))
                .build();
        client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(interceptor).build());
    }

    private static KeyValue header(Response response, String key, String header) {
        String value = response == null ? null : response.header(header);
        return KeyValue.of(key, value == null || value.isEmpty() ? "none" : value);
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
