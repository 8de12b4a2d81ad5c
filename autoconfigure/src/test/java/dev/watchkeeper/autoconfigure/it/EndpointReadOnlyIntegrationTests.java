package dev.watchkeeper.autoconfigure.it;

import static dev.watchkeeper.test.stub.Replies.serviceUnavailable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dev.watchkeeper.test.boot.AutoConfigureKubeApiStub;
import dev.watchkeeper.test.boot.KubeApiStubCustomizer;
import dev.watchkeeper.test.stub.KubeApiStub;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

/**
 * "Retry now" is the endpoint's write operation, so Boot's access rules govern it: with
 * {@code management.endpoint.watchkeeper.access=read-only} the state is readable and the POST is refused, and the
 * watcher keeps waiting out its backoff.
 */
@SpringBootTest(classes = {EndpointReadOnlyIntegrationTests.App.class, EndpointReadOnlyIntegrationTests.Script.class},
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
                "management.endpoints.web.exposure.include=health,watchkeeper",
                "management.endpoint.watchkeeper.access=read-only",
                "watchkeeper.watchers.cms.resource=v1/configmaps",
                "watchkeeper.backoff.initial-interval=30s",
                "watchkeeper.backoff.max-interval=60s"})
@AutoConfigureKubeApiStub
@DirtiesContext
class EndpointReadOnlyIntegrationTests {

    private static final String PATH = "/api/v1/configmaps";

    @LocalServerPort
    int port;

    @Autowired
    KubeApiStub stub;

    @TestConfiguration
    static class Script {

        @Bean
        KubeApiStubCustomizer script() {
            return stub -> stub.on(PATH).list(serviceUnavailable()).list(serviceUnavailable());
        }
    }

    @Test
    void readOnlyAccessServesTheStateAndRefusesRetryNow() {
        Http http = new Http(port);
        JsonObject[] backingOff = new JsonObject[1];
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            backingOff[0] = http.get("/actuator/watchkeeper/cms").json().getAsJsonObject();
            return backingOff[0].get("phase").getAsString().equals("BACKING_OFF");
        });

        Http.Response refused = http.post("/actuator/watchkeeper/cms");

        assertThat(refused.status()).as(refused.body()).isEqualTo(405);
        JsonObject after = http.get("/actuator/watchkeeper/cms").json().getAsJsonObject();
        assertThat(after.get("phase").getAsString()).isEqualTo("BACKING_OFF");
        assertThat(after.get("consecutiveFailures").getAsInt()).isEqualTo(1);
        assertThat(after.get("nextAttemptAt")).isEqualTo(backingOff[0].get("nextAttemptAt"));
        assertThat(stub.listRequests(PATH)).as("no retry happened").hasSize(1);
        assertThat(http.get("/actuator/watchkeeper").status()).isEqualTo(200);
    }

    @SpringBootApplication
    static class App {
    }
}
