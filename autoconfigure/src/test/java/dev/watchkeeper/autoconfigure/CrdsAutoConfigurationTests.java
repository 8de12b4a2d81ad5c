package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.sun.net.httpserver.HttpServer;
import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.test.VirtualTime;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class CrdsAutoConfigurationTests {

    private final InMemoryApiServer server = new InMemoryApiServer().start();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class,
                    WatchkeeperCrdsAutoConfiguration.class))
            .withBean(ApiClient.class, server::apiClient)
            .withBean(GadgetReconciler.class);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void offByDefault() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(StartUpCustomResourceDefinitions.class);
            assertThat(crd("gadgets")).isEmpty();
        });
    }

    @Test
    void appliesTheCrdsOfTheTypesReconcilersReadBeforeTheRegistryIsMade() {
        runner.withPropertyValues("watchkeeper.crds.apply=true").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(StartUpCustomResourceDefinitions.class);
            assertThat(crd("gadgets")).hasValueSatisfying(crd -> assertThat(crd.getAsJsonObject("metadata")
                    .getAsJsonArray("managedFields").get(0).getAsJsonObject().get("manager").getAsString())
                    .isEqualTo(StartUpCustomResourceDefinitions.FIELD_MANAGER));
            assertThat(crd("parts")).isPresent();
            assertThat(Arrays.asList(context.getBeanFactory().getBeanDefinition("watchkeeperRegistry").getDependsOn()))
                    .contains(WatchkeeperCrdsAutoConfiguration.BEAN);
        });
    }

    @Test
    void aRefusedApplyStopsStartUpSayingWhatToGrant() {
        server.forbid("apiextensions.k8s.io", "customresourcedefinitions");
        runner.withPropertyValues("watchkeeper.crds.apply=true").run(context -> assertThat(context).getFailure()
                .rootCause().hasMessageStartingWith("watchkeeper.crds.apply: applying the CRD gadgets.test.watchkeeper.dev"
                        + " (from " + Gadget.class.getName() + ") failed with HTTP 403: ")
                .hasMessageEndingWith("; the application needs the right to get and patch customresourcedefinitions"
                        + " (apiextensions.k8s.io), or leave watchkeeper.crds.apply off and apply them at deploy time"));
    }

    @Test
    void aCrdNeverEstablishedStopsStartUpWithItsLastStatus() throws IOException {
        HttpServer notEstablishing = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        AtomicInteger requests = new AtomicInteger();
        notEstablishing.createContext("/", exchange -> {   // the apply and every read: a CRD whose names conflict
            requests.incrementAndGet();
            byte[] body = ("{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
                    + "\"metadata\":{\"name\":\"gadgets.test.watchkeeper.dev\"},\"status\":{\"conditions\":"
                    + "[{\"type\":\"NamesAccepted\",\"status\":\"False\"}]}}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        notEstablishing.start();
        try {
            VirtualTime time = new VirtualTime();
            StartUpCustomResourceDefinitions crds = new StartUpCustomResourceDefinitions(new ApiClient()
                    .setBasePath("http://127.0.0.1:" + notEstablishing.getAddress().getPort()), time);

            assertThatThrownBy(() -> crds.apply(Set.of(Gadget.class))).isInstanceOf(IllegalStateException.class)
                    .hasMessage("watchkeeper.crds.apply: the CRD gadgets.test.watchkeeper.dev was not Established"
                            + " within 60s; last seen: {\"conditions\":[{\"type\":\"NamesAccepted\","
                            + "\"status\":\"False\"}]}");
            assertThat(time.clock().instant()).isAfterOrEqualTo(VirtualTime.DEFAULT_START
                    .plus(StartUpCustomResourceDefinitions.ESTABLISHED_WITHIN));
            // the apply; a read at once and after waits of 0.1, 0.2 … 3.2 s; then one every 5 s up to 60 s
            assertThat(requests).hasValue(1 + 7 + 10);
        } finally {
            notEstablishing.stop(0);
        }
    }

    private Optional<JsonObject> crd(String plural) {
        return server.get("apiextensions.k8s.io", "customresourcedefinitions", null, plural + ".test.watchkeeper.dev");
    }

    static class GadgetReconciler {

        @Reconciler(owns = {V1ConfigMap.class, Part.class})
        void reconcile(Gadget gadget) {
        }
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "gadgets")
    public static class Gadget extends Base {
        public String spec;
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "parts")
    public static class Part extends Base {
    }

    public static class Base implements KubernetesObject {

        public String apiVersion;
        public String kind;
        public V1ObjectMeta metadata;

        @Override
        public V1ObjectMeta getMetadata() {
            return metadata;
        }

        @Override
        public String getApiVersion() {
            return apiVersion;
        }

        @Override
        public String getKind() {
            return kind;
        }
    }
}
