package dev.watchkeeper.autoconfigure.it;

import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.events;
import static dev.watchkeeper.test.stub.Replies.page;
import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.autoconfigure.endpoint.WatchkeeperEndpoint;
import dev.watchkeeper.test.boot.AutoConfigureKubeApiStub;
import dev.watchkeeper.test.boot.KubeApiStubCustomizer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

/**
 * Without {@code management.endpoints.web.exposure.include} naming it (Boot's default exposes health only),
 * {@code /actuator/watchkeeper} is not served over HTTP, for reading or for "retry now": the endpoint is not even
 * created ({@code @ConditionalOnAvailableEndpoint}).
 */
@SpringBootTest(classes = {EndpointNotExposedIntegrationTests.App.class, EndpointNotExposedIntegrationTests.Script.class},
        webEnvironment = WebEnvironment.RANDOM_PORT, properties = "watchkeeper.watchers.cms.resource=v1/configmaps")
@AutoConfigureKubeApiStub
@DirtiesContext
class EndpointNotExposedIntegrationTests {

    @LocalServerPort
    int port;

    @Autowired
    ApplicationContext context;

    @TestConfiguration
    static class Script {

        @Bean
        KubeApiStubCustomizer script() {
            return stub -> stub.on("/api/v1/configmaps").list(page(cm("a", "5")).resourceVersion("5"))
                    .watch(events().thenStayOpen());
        }
    }

    @Test
    void theEndpointIsNotServedOverHttpUnlessTheApplicationIncludesIt() {
        Http http = new Http(port);

        assertThat(context.getBeansOfType(WatchkeeperEndpoint.class)).isEmpty();
        assertThat(http.get("/actuator/watchkeeper").status()).isEqualTo(404);
        assertThat(http.get("/actuator/watchkeeper/cms").status()).isEqualTo(404);
        assertThat(http.post("/actuator/watchkeeper/cms").status()).isEqualTo(404);
        Http.Response links = http.get("/actuator");
        assertThat(links.status()).isEqualTo(200);
        assertThat(links.json().getAsJsonObject().getAsJsonObject("_links").keySet())
                .doesNotContain("watchkeeper", "watchkeeper-name").contains("health");
    }

    @SpringBootApplication
    static class App {
    }
}
