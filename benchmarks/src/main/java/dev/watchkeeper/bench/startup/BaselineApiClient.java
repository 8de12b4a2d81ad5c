package dev.watchkeeper.bench.startup;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.support.GenericApplicationContext;

/**
 * The baseline's {@link ApiClient} bean, built as any client-java application builds one and as the starter builds
 * its own: {@code ClientBuilder.standard()}, which reads the kubeconfig {@code $KUBECONFIG} names (persisting
 * refreshed credentials to it) and sets up client-java's {@code JSON} and OkHttp. It is an eager singleton, so the
 * context creates it while it refreshes, before {@code run()} returns, as the starter's registry, which needs the
 * client, makes the context create the starter's.
 */
final class BaselineApiClient implements ApplicationContextInitializer<GenericApplicationContext> {

    /** The bean's name, for the check that the context really created it. */
    static final String BEAN = "apiClient";

    @Override
    public void initialize(GenericApplicationContext context) {
        context.registerBean(BEAN, ApiClient.class, BaselineApiClient::standard);
    }

    private static ApiClient standard() {
        try {
            return ClientBuilder.standard().build();
        } catch (IOException e) {
            throw new UncheckedIOException("the baseline could not build its ApiClient from $KUBECONFIG", e);
        }
    }
}
