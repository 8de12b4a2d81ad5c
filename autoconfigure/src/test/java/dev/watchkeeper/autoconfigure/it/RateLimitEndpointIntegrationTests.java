package dev.watchkeeper.autoconfigure.it;

import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.events;
import static dev.watchkeeper.test.stub.Replies.page;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.test.boot.AutoConfigureKubeApiStub;
import dev.watchkeeper.test.boot.KubeApiStubCustomizer;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The overall retry rate limit, set in properties, in {@code /actuator/watchkeeper} over real HTTP while it delays
 * the retries of objects listed from the API stub.
 */
@SpringBootTest(classes = {RateLimitEndpointIntegrationTests.App.class, RateLimitEndpointIntegrationTests.Script.class},
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
                "management.endpoints.web.exposure.include=watchkeeper",
                "watchkeeper.reconcilers.storm.rate-limit.enabled=true",
                "watchkeeper.reconcilers.storm.rate-limit.qps=0.2",
                "watchkeeper.reconcilers.storm.rate-limit.burst=1"})
@AutoConfigureKubeApiStub
@DirtiesContext
class RateLimitEndpointIntegrationTests {

    @LocalServerPort
    int port;

    /** The API stub's script, written before the application's first call. */
    @TestConfiguration
    static class Script {

        @Bean
        KubeApiStubCustomizer script() {
            return stub -> stub.on("/api/v1/namespaces/storm/configmaps")
                    .list(page(cm("a", "5"), cm("b", "5")).resourceVersion("5"))
                    .watch(events().thenStayOpen());
        }
    }

    @Test
    void theEndpointShowsTheLimitAndHowLongItDelaysRetries() {
        Http http = new Http(port);
        JsonObject[] reconciler = new JsonObject[1];

        await().atMost(Duration.ofSeconds(10)).until(() -> {
            reconciler[0] = http.get("/actuator/watchkeeper/storm").json().getAsJsonObject();
            return reconciler[0].getAsJsonObject("rateLimit").get("limitedRetries").getAsLong() >= 1;
        });

        JsonObject limit = reconciler[0].getAsJsonObject("rateLimit");
        assertThat(limit.get("qps").getAsDouble()).isEqualTo(0.2);
        assertThat(limit.get("burst").getAsInt()).isEqualTo(1);
        // Three tokens taken (a, b, a's retry) of a bucket of one: the next waits up to 3 / 0.2 s.
        assertThat(Duration.parse(limit.get("delay").getAsString())).as("a retry asked for now waits for a token")
                .isGreaterThan(Duration.ofSeconds(1)).isLessThanOrEqualTo(Duration.ofSeconds(15));
        assertThat(reconciler[0].getAsJsonArray("failingKeys").asList())
                .extracting(key -> Duration.parse(key.getAsJsonObject().get("delay").getAsString()))
                .as("a retry waits seconds for its token instead of its 5 ms backoff")
                .anySatisfy(delay -> assertThat(delay).isGreaterThan(Duration.ofSeconds(1)));
    }

    @SpringBootApplication
    static class App {

        @Bean
        Storm storm() {
            return new Storm();
        }
    }

    static class Storm {

        @Reconciler(name = "storm", namespace = "storm")
        void reconcile(V1ConfigMap configMap) {
            throw new IllegalStateException("fails on purpose");
        }
    }
}
