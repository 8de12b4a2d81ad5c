package dev.watchkeeper.test.stub;

import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.page;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Registered as an extension, the stub is running in every test and starts each one empty. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubeApiStubExtensionTest {

    private static final String PATH = "/api/v1/namespaces/default/configmaps";

    @RegisterExtension
    static KubeApiStub stub = new KubeApiStub();

    @Test
    @Order(1)
    void isStartedBeforeEachTest() throws Exception {
        assertThat(stub.isRunning()).isTrue();
        stub.on(PATH).list(page(cm("a")).resourceVersion("3")).list(page());

        assertThat(new CoreV1Api(stub.apiClient()).listNamespacedConfigMap("default").execute().getItems())
                .hasSize(1);
    }

    @Test
    @Order(2)
    void isResetAfterEachTest() {
        assertThat(stub.isRunning()).isTrue();
        assertThat(stub.requests()).isEmpty();
        assertThat(stub.scriptConsumed()).isTrue();
    }
}
