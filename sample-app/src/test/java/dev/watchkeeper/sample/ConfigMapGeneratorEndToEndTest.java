package dev.watchkeeper.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import dev.watchkeeper.sample.generator.ConfigMapGenerator;
import dev.watchkeeper.sample.generator.ConfigMapGeneratorReconciler;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.test.boot.AutoConfigureInMemoryKubeApi;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureTestRestTemplate;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * The sample app over real HTTP on the in-memory API server. The watchers' backoff starts at 30 s here, so only
 * the endpoint's retry-now can make the generator watcher recover within a test's patience.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sample.demo.enabled=false",
        "watchkeeper.backoff.initial-interval=30s",
        "watchkeeper.backoff.max-interval=60s"})
@AutoConfigureInMemoryKubeApi
@AutoConfigureTestRestTemplate
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConfigMapGeneratorEndToEndTest {

    static final String NAMESPACE = "default";
    static final String WATCHER = "configmapgenerators.samples.watchkeeper.dev@all";

    @Autowired
    InMemoryApiServer server;

    @Autowired
    TestRestTemplate http;

    @Test
    @Order(1)
    @SuppressWarnings("unchecked")
    void crdMissingAtStart_endpointShowsBackingOff_healthIsNotUp() {
        await().until(() -> "BACKING_OFF".equals(watcher().get("phase")));

        Map<String, Object> watcher = watcher();
        assertThat(watcher.get("synced")).isEqualTo(false);
        assertThat(watcher.get("currentDelay")).isNotNull();
        assertThat((Map<String, Object>) watcher.get("lastError")).containsEntry("kind", "InitialListFailed")
                .containsEntry("code", 404);
        ResponseEntity<Map> health = http.getForEntity("/actuator/health", Map.class);
        assertThat(health.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(health.getBody().get("status")).isNotEqualTo("UP");
        assertThat(http.getForEntity("/actuator/health/readiness", Map.class).getStatusCode())
                .isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(http.getForEntity("/actuator/health/liveness", Map.class).getStatusCode())
                .isEqualTo(HttpStatus.OK);
    }

    @Test
    @Order(2)
    void crdInstalled_retryNowOverHttp_watchingAndHealthUp() {
        installCrd();

        ResponseEntity<Map> retry = http.postForEntity("/actuator/watchkeeper/{name}", null, Map.class, WATCHER);

        assertThat(retry.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(retry.getBody()).containsEntry("type", "watcher");
        // far sooner than the 30 s backoff the watcher was waiting out
        within(Duration.ofSeconds(10)).until(() -> "WATCHING".equals(watcher().get("phase"))
                && Boolean.TRUE.equals(watcher().get("synced")));
        within(Duration.ofSeconds(10)).until(() -> http.getForEntity("/actuator/health", Map.class)
                .getStatusCode() == HttpStatus.OK);
    }

    @Test
    @Order(3)
    void generatorCreated_configMapsExistWithControllerOwnerReference_statusReady() {
        watchingGenerators();

        ConfigMapGenerator created = server.create(generator("created", 2, null, Map.of("greeting", "hello")));

        within(Duration.ofSeconds(10)).until(() -> configMap("created-0").isPresent()
                && configMap("created-1").isPresent());
        for (String name : List.of("created-0", "created-1")) {
            V1ConfigMap configMap = configMap(name).orElseThrow();
            assertThat(configMap.getData()).containsExactlyEntriesOf(Map.of("greeting", "hello"));
            V1OwnerReference owner = configMap.getMetadata().getOwnerReferences().get(0);
            assertThat(owner.getUid()).isEqualTo(created.getMetadata().getUid());
            assertThat(owner.getKind()).isEqualTo("ConfigMapGenerator");
            assertThat(owner.getApiVersion()).isEqualTo("samples.watchkeeper.dev/v1");
            assertThat(owner.getController()).isTrue();
        }
        within(Duration.ofSeconds(10)).until(() -> observedGeneration("created") == 1L);
        assertThat(readyCondition("created")).containsEntry("status", "True").containsEntry("reason", "Reconciled")
                .containsEntry("message", "2 ConfigMaps up to date").containsEntry("observedGeneration", 1L);
    }

    @Test
    @Order(4)
    void generatorUpdated_configMapsFollowTheNewGeneration_surplusDeleted() {
        watchingGenerators();
        server.create(generator("updated", 3, "upd", Map.of("level", "info")));
        within(Duration.ofSeconds(10)).until(() -> configMap("upd-2").isPresent() && observedGeneration("updated") == 1L);

        JsonObject stored = server.get(ConfigMapGenerator.GROUP, ConfigMapGenerator.PLURAL, NAMESPACE, "updated")
                .orElseThrow();
        JsonObject spec = stored.getAsJsonObject("spec");
        spec.addProperty("replicas", 2);
        spec.getAsJsonObject("content").addProperty("level", "debug");
        JsonObject updated = server.update(stored);
        assertThat(updated.getAsJsonObject("metadata").get("generation").getAsLong()).isEqualTo(2);

        within(Duration.ofSeconds(10)).until(() -> observedGeneration("updated") == 2L);
        within(Duration.ofSeconds(10)).until(() -> configMap("upd-2").isEmpty());
        for (String name : List.of("upd-0", "upd-1")) {
            V1ConfigMap configMap = configMap(name).orElseThrow();
            assertThat(configMap.getData()).containsEntry("level", "debug");
            assertThat(configMap.getMetadata().getAnnotations())
                    .containsEntry(ConfigMapGeneratorReconciler.GENERATION_ANNOTATION, "2");
        }
    }

    @Test
    @Order(5)
    void configMapDeletedByHand_isRecreated() {
        watchingGenerators();
        server.create(generator("recreated", 1, null, Map.of("k", "v")));
        within(Duration.ofSeconds(10)).until(() -> configMap("recreated-0").isPresent());
        String firstUid = configMap("recreated-0").orElseThrow().getMetadata().getUid();

        assertThat(server.delete("", "configmaps", NAMESPACE, "recreated-0")).isTrue();

        within(Duration.ofSeconds(10)).until(() -> configMap("recreated-0")
                .filter(c -> !c.getMetadata().getUid().equals(firstUid)).isPresent());
        assertThat(configMap("recreated-0").orElseThrow().getData()).containsEntry("k", "v");
    }

    // ---------------------------------------------------------------- helpers

    /** The CRD installed and the generator watcher watching (run alone, a test installs it itself). */
    private void watchingGenerators() {
        if (server.get("apiextensions.k8s.io", "customresourcedefinitions", null,
                ConfigMapGenerator.PLURAL + "." + ConfigMapGenerator.GROUP).isEmpty()) {
            installCrd();
        }
        if (!"WATCHING".equals(watcher().get("phase"))) {
            http.postForEntity("/actuator/watchkeeper/{name}", null, Map.class, WATCHER);
        }
        within(Duration.ofSeconds(10)).until(() -> "WATCHING".equals(watcher().get("phase")));
    }

    private void installCrd() {
        server.createCustomResourceDefinition(ConfigMapGenerator.GROUP, ConfigMapGenerator.VERSION,
                ConfigMapGenerator.PLURAL, ConfigMapGenerator.KIND, true);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> watcher() {
        ResponseEntity<Map> response = http.getForEntity("/actuator/watchkeeper/{name}", Map.class, WATCHER);
        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        return response.getBody();
    }

    private static ConfigMapGenerator generator(String name, int replicas, String prefix, Map<String, String> content) {
        ConfigMapGenerator generator = ConfigMapGenerator.of(NAMESPACE, name, content);
        generator.getSpec().replicas(replicas).namePrefix(prefix);
        return generator;
    }

    private Optional<V1ConfigMap> configMap(String name) {
        return server.get(V1ConfigMap.class, NAMESPACE, name);
    }

    private ConfigMapGenerator stored(String name) {
        JsonObject json = server.get(ConfigMapGenerator.GROUP, ConfigMapGenerator.PLURAL, NAMESPACE, name)
                .orElseThrow();
        return JSON.getGson().fromJson(json, ConfigMapGenerator.class);
    }

    private long observedGeneration(String name) {
        ConfigMapGenerator.Status status = stored(name).getStatus();
        return status == null || status.getObservedGeneration() == null ? -1 : status.getObservedGeneration();
    }

    private Map<String, Object> readyCondition(String name) {
        JsonObject json = server.get(ConfigMapGenerator.GROUP, ConfigMapGenerator.PLURAL, NAMESPACE, name)
                .orElseThrow();
        JsonObject condition = json.getAsJsonObject("status").getAsJsonArray("conditions").get(0).getAsJsonObject();
        return Map.of("type", condition.get("type").getAsString(), "status", condition.get("status").getAsString(),
                "reason", condition.get("reason").getAsString(), "message", condition.get("message").getAsString(),
                "observedGeneration", condition.get("observedGeneration").getAsLong());
    }

    private static ConditionFactory within(Duration timeout) {
        return await().atMost(timeout).pollInterval(Duration.ofMillis(100));
    }
}
