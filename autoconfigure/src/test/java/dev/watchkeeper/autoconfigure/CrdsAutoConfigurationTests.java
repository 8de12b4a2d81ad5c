package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Arrays;
import java.util.Optional;
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
