package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.google.gson.JsonObject;
import com.sun.net.httpserver.HttpServer;
import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.test.VirtualTime;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.webhook.Convertible;
import dev.watchkeeper.webhook.StorageVersion;
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
    void aMultiVersionCrdCarriesTheConversionWebhookThePropertiesName() {
        versioned().withPropertyValues("watchkeeper.crds.apply=true", "watchkeeper.webhooks.service.name=hooks",
                "watchkeeper.webhooks.service.namespace=ops").run(context -> {
                    assertThat(context).hasNotFailed();
                    JsonObject spec = crd("dials").orElseThrow().getAsJsonObject("spec");
                    assertThat(spec.getAsJsonArray("versions").asList()).extracting(
                            v -> v.getAsJsonObject().get("name").getAsString(),
                            v -> v.getAsJsonObject().get("storage").getAsBoolean())
                            .containsExactly(tuple("v2", true), tuple("v1", false));
                    assertThat(spec.get("conversion").toString()).isEqualTo("{\"strategy\":\"Webhook\",\"webhook\":"
                            + "{\"conversionReviewVersions\":[\"v1\"],\"clientConfig\":{\"service\":{\"namespace\":"
                            + "\"ops\",\"name\":\"hooks\",\"path\":\"/convert\",\"port\":443}}}}");
                });
    }

    @Test
    void aMultiVersionCrdWithoutTheWebhooksAddressStopsStartUpSayingWhatToSet() {
        versioned().withPropertyValues("watchkeeper.crds.apply=true").run(context -> assertThat(context)
                .getFailure().rootCause().hasMessage("watchkeeper.crds.apply: the CRD of " + Dial.class.getName()
                        + " has several versions, so it needs its conversion webhook's address: set"
                        + " watchkeeper.webhooks.service.name or watchkeeper.webhooks.url"));
        assertThat(crd("dials")).as("nothing half applied").isEmpty();
    }

    private ApplicationContextRunner versioned() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class,
                        WatchkeeperCrdsAutoConfiguration.class))
                .withBean(ApiClient.class, server::apiClient)
                .withBean(DialReconciler.class);
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
                    .setBasePath("http://127.0.0.1:" + notEstablishing.getAddress().getPort()), time, null);

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

    static class DialReconciler {

        @Reconciler
        void reconcile(Dial dial) {
        }
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v2", plural = "dials")
    @StorageVersion(otherVersions = DialV1.class)
    public static class Dial extends Base {
        public int degrees;
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "dials", kind = "Dial")
    public static class DialV1 extends Base implements Convertible<Dial> {
        public double turns;

        @Override
        public Dial toHub() {
            Dial hub = new Dial();
            hub.degrees = (int) Math.round(turns * 360);
            return hub;
        }

        @Override
        public void fromHub(Dial hub) {
            turns = hub.degrees / 360.0;
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
