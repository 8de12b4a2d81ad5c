package dev.watchkeeper.test.chaos;

import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import dev.watchkeeper.test.controlplane.TestNamespace;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** {@link RetryAfterWritesScenarios} on the real control plane behind {@link TlsFaultProxy}, which throttles. */
@RealKubeApi
class ControlPlaneRetryAfterWritesTest extends RetryAfterWritesScenarios {

    private KubeControlPlane plane;
    private String namespace;
    private TlsFaultProxy proxy;
    private ApiClient client;

    @BeforeEach
    void start(KubeControlPlane plane, TestNamespace namespace) throws Exception {
        this.plane = plane;
        this.namespace = namespace.name();
        ProxyCertificate certificate = ProxyCertificate.generate();
        proxy = new TlsFaultProxy(certificate, plane.apiClient().getHttpClient(), plane.apiClient().getBasePath());
        client = ControlPlaneChaosTest.throughProxy(plane, proxy, certificate);
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
    }

    @Override
    ApiClient client() {
        return client;
    }

    @Override
    ApiClient directClient() {
        return plane.apiClient();
    }

    @Override
    String namespace() {
        return namespace;
    }

    @Override
    void throttleNext(Duration retryAfter) {
        proxy.throttle(1, retryAfter);
    }

    @Override
    int openWatches() {
        return proxy.openWatches();
    }

    @Override
    List<String> received() {
        return proxy.received();
    }
}
