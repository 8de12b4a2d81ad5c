package dev.watchkeeper.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.sample.generator.ConfigMapGenerator;
import dev.watchkeeper.sample.generator.ConfigMapGeneratorReconciler;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The sample end to end against one API server: {@code sample-app/deploy/} and its example applied with the built
 * kubectl (with validation), the sample run as its own process with the {@code cluster} profile and leader election
 * as {@code deploy/} runs it. There is no kubelet: the Deployment is created but never runs. One subclass per server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SampleEndToEndScenario {

    static final Duration WAIT = Duration.ofSeconds(60);
    static final String NAMESPACE = "default";

    private SampleProcess sample;

    /** Runs the built kubectl against the server; its standard output. */
    abstract String kubectl(String... args) throws Exception;

    /** A client with every right, for the test's own reads. */
    abstract ApiClient apiClient();

    /** The kubeconfig the sample runs with, once {@code deploy/} is applied. */
    abstract Path sampleKubeconfig() throws Exception;

    /** Who removes a deleted generator's ConfigMaps, for the assertion message. */
    abstract String garbageCollector();

    @BeforeAll
    void deployAndStart() throws Exception {
        assertThat(kubectl("apply", "-f", Path.of("deploy").toAbsolutePath().toString())).contains(
                "customresourcedefinition.apiextensions.k8s.io/configmapgenerators.samples.watchkeeper.dev",
                "clusterrole.rbac.authorization.k8s.io/watchkeeper-sample", "deployment.apps/watchkeeper-sample");
        await().atMost(WAIT).until(() -> generators().list(NAMESPACE).isSuccess());

        sample = SampleProcess.start(launcher(), List.of("--spring.profiles.active=cluster",
                // as deploy/ runs it; outside a pod the Lease namespace is not the service account's, so name it
                "--watchkeeper.leader-election.enabled=true",
                "--watchkeeper.leader-election.lease-namespace=watchkeeper-sample"),
                Map.of("KUBECONFIG", sampleKubeconfig().toString()), WAIT);
    }

    @AfterAll
    void stopSample() throws Exception {
        if (sample != null) {
            sample.close();
        }
    }

    /** How the sample is started: {@link SampleProcess#CLASS_PATH} unless a subclass says otherwise. */
    List<String> launcher() {
        return SampleProcess.CLASS_PATH;
    }

    @Test
    void reconcilesTheExampleFollowsSpecEditsAndCleansUpOnDelete() throws Exception {
        kubectl("apply", "-f", Path.of("deploy", "examples", "greetings.yaml").toAbsolutePath().toString());
        CoreV1Api core = new CoreV1Api(apiClient());
        String uid = generators().get(NAMESPACE, "greetings").throwsApiException().getObject().getMetadata().getUid();

        await().atMost(WAIT).until(() -> configMaps(core).size() == 2);
        for (V1ConfigMap configMap : configMaps(core)) {
            assertThat(configMap.getData()).containsEntry("greeting", "hello, world");
            V1OwnerReference owner = configMap.getMetadata().getOwnerReferences().get(0);
            assertThat(owner.getUid()).isEqualTo(uid);
            assertThat(owner.getController()).isTrue();
        }
        await().atMost(WAIT).until(() -> "True".equals(readyStatus()));
        assertThat(generators().get(NAMESPACE, "greetings").throwsApiException().getObject().getMetadata()
                .getFinalizers()).as("added before the first reconcile").contains(ConfigMapGeneratorReconciler.FINALIZER);
        // it reconciled as the leader, through the Lease of deploy/
        assertThat(kubectl("get", "lease", "watchkeeper-sample-leader", "-n", "watchkeeper-sample", "-o",
                "jsonpath={.spec.holderIdentity}")).isNotBlank();

        kubectl("patch", "configmapgenerator", "greetings", "-n", NAMESPACE, "--type=merge",
                "-p", "{\"spec\":{\"content\":{\"greeting\":\"hi\"}}}");
        await().atMost(WAIT).until(() -> configMaps(core).stream()
                .allMatch(c -> "hi".equals(c.getData().get("greeting"))
                        && "2".equals(c.getMetadata().getAnnotations()
                                .get(ConfigMapGeneratorReconciler.GENERATION_ANNOTATION))));

        kubectl("delete", "configmapgenerator", "greetings", "-n", NAMESPACE, "--wait=false");
        await("the cleanup removes the finalizer, so the generator goes").atMost(WAIT)
                .until(() -> generators().get(NAMESPACE, "greetings").getHttpStatusCode() == 404);
        EventsV1Api events = new EventsV1Api(apiClient());
        await("the cleanup's Event, written off the reconcile thread").atMost(WAIT)
                .until(() -> events.listNamespacedEvent(NAMESPACE).execute().getItems().stream()
                        .anyMatch(event -> "CleanedUp".equals(event.getReason())
                                && uid.equals(event.getRegarding().getUid())));
        await(garbageCollector() + " removes the owned ConfigMaps").atMost(WAIT).until(() -> configMaps(core).isEmpty());
        assertThat(sample.log()).doesNotContain("Forbidden");
    }

    private DynamicKubernetesApi generators() {
        return new DynamicKubernetesApi(ConfigMapGenerator.GROUP, ConfigMapGenerator.VERSION,
                ConfigMapGenerator.PLURAL, apiClient());
    }

    private static List<V1ConfigMap> configMaps(CoreV1Api core) throws ApiException {
        return core.listNamespacedConfigMap(NAMESPACE)
                .labelSelector(ConfigMapGeneratorReconciler.GENERATOR_LABEL + "=greetings").execute().getItems();
    }

    private String readyStatus() throws ApiException {
        DynamicKubernetesObject generator = generators().get(NAMESPACE, "greetings").throwsApiException().getObject();
        var status = generator.getRaw().getAsJsonObject("status");
        if (status == null || !status.has("conditions")) {
            return null;
        }
        return status.getAsJsonArray("conditions").get(0).getAsJsonObject().get("status").getAsString();
    }
}
