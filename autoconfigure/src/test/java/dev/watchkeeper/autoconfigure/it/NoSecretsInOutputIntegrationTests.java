package dev.watchkeeper.autoconfigure.it;

import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.events;
import static dev.watchkeeper.test.stub.Replies.modified;
import static dev.watchkeeper.test.stub.Replies.page;
import static dev.watchkeeper.test.stub.Replies.statusOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dev.watchkeeper.test.boot.AutoConfigureKubeApiStub;
import dev.watchkeeper.test.boot.KubeApiStubCustomizer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

/**
 * What the application shows and logs leaks nothing: a client from a kubeconfig with a known token, an API server
 * whose error echoes that token, a client key, the Authorization header and a Secret's {@code data},
 * {@code stringData} and {@code spec}, a ConfigMap with a secret-looking value in the store, DEBUG logging for
 * everything (the stub's server included); the watcher fails, is told to retry now, and recovers. Neither the
 * endpoint, nor health, nor any log line (the captured console, every logger) carries any of it.
 */
@SpringBootTest(classes = {NoSecretsInOutputIntegrationTests.App.class, NoSecretsInOutputIntegrationTests.Script.class},
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
                "management.endpoints.web.exposure.include=health,watchkeeper",
                "management.endpoint.health.show-details=always",
                "management.endpoint.health.probes.enabled=true",
                "watchkeeper.watchers.cms.resource=v1/configmaps",
                "watchkeeper.watchers.cms.namespace=team",
                "watchkeeper.backoff.initial-interval=30s",
                "watchkeeper.backoff.max-interval=60s",
                "logging.level.root=DEBUG"})
@AutoConfigureKubeApiStub
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
class NoSecretsInOutputIntegrationTests {

    static final String TOKEN = "sha256~kn0wn-t0ken-Zx9QwErTy";
    static final String CLIENT_KEY = "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2Z0lCQURBTkJna3Foa2lHOXcwQkFRRUZBQVND";
    static final String SECRET_VALUE = "aHVudGVyMi1zZWNyZXQtdmFsdWU=";
    static final String STRING_DATA_VALUE = "plain-text-password-42";
    static final String SPEC_VALUE = "spec-only-value-7";
    static final String CONFIG_MAP_VALUE = "config-map-value-in-the-store";

    @LocalServerPort
    int port;

    @TestConfiguration
    static class Script {

        /** The application's client, as its kubeconfig makes it: the stub's address and a known token. */
        @Bean
        static BeanPostProcessor clientFromKubeconfig() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String name) {
                    return bean instanceof ApiClient stubClient ? fromKubeconfig(stubClient.getBasePath()) : bean;
                }
            };
        }

        @Bean
        KubeApiStubCustomizer script() {
            String echo = "admission failed for GET with Authorization: Bearer " + TOKEN + " and client-key-data: "
                    + CLIENT_KEY + " on {\"kind\":\"Secret\",\"spec\":{\"x\":\"" + SPEC_VALUE + "\"},\"data\":"
                    + "{\"password\":\"" + SECRET_VALUE + "\"},\"stringData\":{\"p\":\"" + STRING_DATA_VALUE + "\"}}";
            return stub -> stub.on("/api/v1/namespaces/team/configmaps")
                    .list(statusOf(500, "InternalError", echo, null, null))
                    .list(page(cm("a", "5").data(Map.of("password", CONFIG_MAP_VALUE))).resourceVersion("5"))
                    .watch(events(modified(cm("a", "6").data(Map.of("password", CONFIG_MAP_VALUE + "2"))))
                            .thenStayOpen());
        }
    }

    static ApiClient fromKubeconfig(String server) {
        String kubeconfig = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: stub
                  cluster:
                    server: %s
                users:
                - name: app
                  user:
                    token: %s
                contexts:
                - name: stub
                  context:
                    cluster: stub
                    user: app
                current-context: stub
                """.formatted(server, TOKEN);
        try {
            return ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(new StringReader(kubeconfig))).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void neitherTheEndpointNorHealthNorAnyLogLineCarriesACredentialOrObjectContents(CapturedOutput output) {
        Http http = new Http(port);
        List<String> shown = new ArrayList<>();
        JsonObject backingOff = awaitWatcher(http, watcher -> watcher.get("phase").getAsString().equals("BACKING_OFF"));
        assertThat(backingOff.getAsJsonObject("lastError").get("message").getAsString()).isEqualTo("server error 500 "
                + "on list v1/configmaps (admission failed for GET with Authorization: Bearer <redacted> and "
                + "client-key-data: <redacted> on {\"kind\":\"Secret\",…)");
        shown.addAll(everythingShown(http));

        assertThat(http.post("/actuator/watchkeeper/cms").status()).isEqualTo(200);
        awaitWatcher(http, watcher -> watcher.get("phase").getAsString().equals("WATCHING")
                && "6".equals(watcher.get("resourceVersion").getAsString()));
        shown.addAll(everythingShown(http));

        assertThat(String.join("\n", shown)).doesNotContain(TOKEN, CLIENT_KEY, SECRET_VALUE, STRING_DATA_VALUE,
                SPEC_VALUE, CONFIG_MAP_VALUE, "\"data\"", "\"stringData\"", "\"spec\"");
        assertThat(output.getAll())
                .as("DEBUG was on").contains("DEBUG")
                .as("the failure was logged").contains("watcher cms: server error 500 on list v1/configmaps")
                .as("and the recovery").contains("watcher cms recovered after 1 failure")
                .doesNotContain(TOKEN, CLIENT_KEY, SECRET_VALUE, STRING_DATA_VALUE, SPEC_VALUE, CONFIG_MAP_VALUE);
    }

    private static List<String> everythingShown(Http http) {
        List<String> bodies = new ArrayList<>();
        for (String path : new String[] {"/actuator/watchkeeper", "/actuator/watchkeeper/cms", "/actuator/health",
                "/actuator/health/readiness", "/actuator/health/watchkeeper"}) {
            bodies.add(http.get(path).body());
        }
        return bodies;
    }

    private static JsonObject awaitWatcher(Http http, java.util.function.Predicate<JsonObject> condition) {
        JsonObject[] found = new JsonObject[1];
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            found[0] = http.get("/actuator/watchkeeper/cms").json().getAsJsonObject();
            return condition.test(found[0]);
        });
        return found[0];
    }

    @SpringBootApplication
    static class App {
    }
}
