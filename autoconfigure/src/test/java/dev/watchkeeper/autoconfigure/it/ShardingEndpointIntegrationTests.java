package dev.watchkeeper.autoconfigure.it;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.reconcile.ReconcileContext;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import dev.watchkeeper.test.boot.AutoConfigureKubeApiStub;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The {@code sharding} section of {@code /actuator/watchkeeper} over real HTTP, before the coordinator starts: with each
 * sharded watcher's filter mode.
 */
@SpringBootTest(classes = ShardingEndpointIntegrationTests.App.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {"management.endpoints.web.exposure.include=watchkeeper", "watchkeeper.sharding.enabled=true",
                "watchkeeper.sharding.group=shop", "watchkeeper.sharding.identity=pod-a"})
@AutoConfigureKubeApiStub
@DirtiesContext
class ShardingEndpointIntegrationTests {

    @LocalServerPort
    int port;

    @Test
    void theEndpointShowsThisReplicasPartInSharding() {
        Http.Response response = new Http(port).get("/actuator/watchkeeper");

        assertThat(response.status()).as(response.body()).isEqualTo(200);
        JsonObject sharding = response.json().getAsJsonObject().getAsJsonObject("sharding");
        assertThat(sharding.get("identity").getAsString()).isEqualTo("pod-a");
        assertThat(sharding.get("group").getAsString()).isEqualTo("shop");
        assertThat(sharding.get("phase").getAsString()).isEqualTo("joining");
        assertThat(sharding.get("active").getAsString()).isEqualTo("[]");
        assertThat(sharding.get("activeFraction").getAsDouble()).isZero();
        assertThat(sharding.get("handOvers").getAsLong()).isZero();
        assertThat(sharding.getAsJsonArray("members").get(0).getAsJsonObject().get("identity").getAsString())
                .isEqualTo("pod-a");
        JsonObject modes = sharding.getAsJsonObject("filterModes");
        assertThat(modes.keySet()).as("the sharded watcher, by name").singleElement().asString().startsWith("configmaps");
        assertThat(modes.entrySet().iterator().next().getValue().getAsString()).as("no slots, so no list yet")
                .isEqualTo("UNKNOWN");
    }

    @SpringBootApplication
    static class App {

        @Reconciler(name = "sharded", namespace = "default")
        void reconcile(V1ConfigMap configMap, ReconcileContext context) {
        }
    }
}
