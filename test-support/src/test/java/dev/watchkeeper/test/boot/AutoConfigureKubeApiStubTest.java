package dev.watchkeeper.test.boot;

import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.page;
import static dev.watchkeeper.test.stub.Replies.serviceUnavailable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.test.stub.KubeApiStub;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;

// Closed after the class: a cached context would keep its server's threads, which other tests of this module count.
@DirtiesContext
@SpringBootTest
@AutoConfigureKubeApiStub
class AutoConfigureKubeApiStubTest {

    static final String PATH = "/api/v1/namespaces/default/configmaps";

    /** Two parts of one script, applied in order before the application's first list call. */
    @TestConfiguration
    static class Script {

        @Bean
        @Order(1)
        KubeApiStubCustomizer firstListFails() {
            return stub -> stub.on(PATH).list(serviceUnavailable());
        }

        @Bean
        @Order(2)
        KubeApiStubCustomizer thenTwoConfigMaps() {
            return stub -> stub.on(PATH).list(page(cm("a"), cm("b")).resourceVersion("3"));
        }
    }

    @Autowired
    KubeApiStub stub;

    @Autowired
    ApiClient apiClient;

    @Autowired
    ApplicationContext context;

    @Autowired
    WatchkeeperRegistry registry;

    @Autowired
    TinyApp.SeenConfigMaps seen;

    @Test
    void theApplicationsOnlyApiClientPointsAtTheStub() {
        assertThat(context.getBeansOfType(ApiClient.class)).containsOnlyKeys("kubeApiStubApiClient");
        assertThat(apiClient.getBasePath()).isEqualTo(stub.url());
        assertThat(registry.services().apiClient()).isSameAs(apiClient);
    }

    @Test
    void customizersScriptTheStubBeforeTheWatchersFirstCall() {
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.names().containsAll(java.util.List.of("a", "b")));

        assertThat(stub.listRequests(PATH)).hasSize(2);
        assertThat(registry.watcher("configmaps@default").orElseThrow().snapshot().counts().errors()).isEqualTo(1);
        stub.assertNoViolations();
    }
}
