package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CrudOverHttpTest {

    private InMemoryApiServer server;
    private CoreV1Api core;
    private RawHttp http;

    @BeforeEach
    void start() {
        server = new InMemoryApiServer().start();
        core = new CoreV1Api(server.apiClient());
        http = new RawHttp(server);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static V1ConfigMap configMap(String name, Map<String, String> labels) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().name(name).namespace("default").labels(labels))
                .data(Map.of("k", "v"));
    }

    @Test
    void createGetListUpdateDelete() throws ApiException {
        V1ConfigMap created = core.createNamespacedConfigMap("default", configMap("x", Map.of())).execute();
        assertThat(created.getMetadata().getUid()).isNotBlank();
        assertThat(created.getMetadata().getResourceVersion()).isEqualTo("1001");
        assertThat(created.getMetadata().getCreationTimestamp()).isNotNull();
        assertThat(created.getMetadata().getGeneration()).as("a ConfigMap has no generation, as on the real server")
                .isNull();
        assertThat(created.getKind()).isEqualTo("ConfigMap");

        V1ConfigMap read = core.readNamespacedConfigMap("x", "default").execute();
        assertThat(read.getData()).containsEntry("k", "v");

        read.setData(Map.of("k", "w"));
        V1ConfigMap updated = core.replaceNamespacedConfigMap("x", "default", read).execute();
        assertThat(updated.getMetadata().getResourceVersion()).isEqualTo("1002");
        assertThat(updated.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());
        assertThat(updated.getMetadata().getCreationTimestamp()).isEqualTo(created.getMetadata().getCreationTimestamp());

        V1ConfigMapList list = core.listNamespacedConfigMap("default").execute();
        assertThat(list.getMetadata().getResourceVersion()).isEqualTo("1002");
        assertThat(list.getItems()).extracting(c -> c.getData().get("k")).containsExactly("w");

        core.deleteNamespacedConfigMap("x", "default").execute();
        assertThatThrownBy(() -> core.readNamespacedConfigMap("x", "default").execute())
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(404);
                    assertThat(e.getResponseBody()).contains("\"reason\":\"NotFound\"")
                            .contains("configmaps \\\"x\\\" not found")
                            .contains("\"details\":{\"name\":\"x\",\"kind\":\"configmaps\"}");
                });
        assertThatThrownBy(() -> core.deleteNamespacedConfigMap("x", "default").execute())
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
    }

    @Test
    void conflictsOnDuplicateCreateAndStaleUpdate() throws ApiException {
        V1ConfigMap created = core.createNamespacedConfigMap("default", configMap("x", Map.of())).execute();
        assertThatThrownBy(() -> core.createNamespacedConfigMap("default", configMap("x", Map.of())).execute())
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(409);
                    assertThat(e.getResponseBody()).contains("\"reason\":\"AlreadyExists\"");
                });
        core.replaceNamespacedConfigMap("x", "default", configMap("x", Map.of("a", "b"))).execute();
        assertThatThrownBy(() -> core.replaceNamespacedConfigMap("x", "default", created).execute())
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(409);
                    assertThat(e.getResponseBody()).contains("\"reason\":\"Conflict\"")
                            .contains("the object has been modified");
                });
    }

    @Test
    void generateNameMakesAUniqueName() throws ApiException {
        V1ConfigMap created = core.createNamespacedConfigMap("default",
                new V1ConfigMap().metadata(new V1ObjectMeta().generateName("job-"))).execute();
        assertThat(created.getMetadata().getName()).matches("job-[a-z0-9]{5}");
        assertThat(created.getMetadata().getNamespace()).isEqualTo("default");
    }

    @Test
    void mergePatchAndJsonPatch() throws ApiException {
        server.create(configMap("x", Map.of("app", "web")));
        V1ConfigMap merged = PatchUtils.patch(V1ConfigMap.class, () -> core.patchNamespacedConfigMap("x", "default",
                new V1Patch("{\"data\":{\"k\":null,\"n\":\"1\"},\"metadata\":{\"labels\":{\"tier\":\"db\"}}}"))
                .buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, core.getApiClient());
        assertThat(merged.getData()).containsExactly(Map.entry("n", "1"));
        assertThat(merged.getMetadata().getLabels()).containsEntry("app", "web").containsEntry("tier", "db");

        GenericKubernetesApi<V1ConfigMap, V1ConfigMapList> generic = new GenericKubernetesApi<>(
                V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps", server.apiClient());
        KubernetesApiResponse<V1ConfigMap> patched = generic.patch("default", "x", V1Patch.PATCH_FORMAT_JSON_PATCH,
                new V1Patch("[{\"op\":\"test\",\"path\":\"/data/n\",\"value\":\"1\"},"
                        + "{\"op\":\"replace\",\"path\":\"/data/n\",\"value\":\"2\"},"
                        + "{\"op\":\"add\",\"path\":\"/data/m\",\"value\":\"3\"},"
                        + "{\"op\":\"remove\",\"path\":\"/metadata/labels/app\"}]"));
        assertThat(patched.isSuccess()).isTrue();
        assertThat(patched.getObject().getData()).containsEntry("n", "2").containsEntry("m", "3");
        assertThat(patched.getObject().getMetadata().getLabels()).containsOnlyKeys("tier");

        KubernetesApiResponse<V1ConfigMap> failedTest = generic.patch("default", "x",
                V1Patch.PATCH_FORMAT_JSON_PATCH, new V1Patch("[{\"op\":\"test\",\"path\":\"/data/n\",\"value\":\"9\"}]"));
        assertThat(failedTest.getHttpStatusCode()).isEqualTo(422);

        KubernetesApiResponse<V1ConfigMap> strategic = generic.patch("default", "x",
                V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH,
                new V1Patch("{\"$setElementOrder/data\":[],\"data\":{\"s\":\"t\"}}"));
        assertThat(strategic.getObject().getData()).containsEntry("s", "t").doesNotContainKey("$setElementOrder/data");
    }

    @Test
    void statusSubresourceAndGeneration() throws ApiException {
        AppsV1Api apps = new AppsV1Api(server.apiClient());
        V1Deployment deployment = new V1Deployment()
                .metadata(new V1ObjectMeta().name("web").namespace("default"))
                .spec(new V1DeploymentSpec().replicas(1).selector(new V1LabelSelector())
                        .template(new V1PodTemplateSpec()));
        V1Deployment created = apps.createNamespacedDeployment("default", deployment).execute();
        assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);

        created.setStatus(new V1DeploymentStatus().readyReplicas(1));
        V1Deployment withStatus = apps.replaceNamespacedDeploymentStatus("web", "default", created).execute();
        assertThat(withStatus.getStatus().getReadyReplicas()).isEqualTo(1);
        assertThat(withStatus.getMetadata().getGeneration()).isEqualTo(1L);

        withStatus.getSpec().setReplicas(3);
        withStatus.setStatus(new V1DeploymentStatus().readyReplicas(99));
        V1Deployment scaled = apps.replaceNamespacedDeployment("web", "default", withStatus).execute();
        assertThat(scaled.getMetadata().getGeneration()).isEqualTo(2L);
        assertThat(scaled.getStatus().getReadyReplicas()).as("main resource ignores .status").isEqualTo(1);

        V1Deployment labelled = PatchUtils.patch(V1Deployment.class, () -> apps.patchNamespacedDeployment("web",
                "default", new V1Patch("{\"metadata\":{\"labels\":{\"a\":\"b\"}}}")).buildCall(null),
                V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, apps.getApiClient());
        assertThat(labelled.getMetadata().getGeneration()).as("metadata change keeps generation").isEqualTo(2L);

        V1Deployment patchedStatus = PatchUtils.patch(V1Deployment.class, () -> apps.patchNamespacedDeploymentStatus(
                "web", "default", new V1Patch("{\"status\":{\"readyReplicas\":3},\"spec\":{\"replicas\":7}}"))
                .buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, apps.getApiClient());
        assertThat(patchedStatus.getStatus().getReadyReplicas()).isEqualTo(3);
        assertThat(patchedStatus.getSpec().getReplicas()).as("status patch ignores spec").isEqualTo(3);
        assertThat(patchedStatus.getMetadata().getGeneration()).isEqualTo(2L);
    }

    @Test
    void pagesWithLimitAndContinue() throws ApiException {
        for (int i = 0; i < 7; i++) {
            server.create(configMap("cm-" + i, Map.of()));
        }
        List<String> names = new ArrayList<>();
        String token = null;
        int pages = 0;
        String firstVersion = null;
        do {
            V1ConfigMapList page = core.listNamespacedConfigMap("default").limit(3)._continue(token).execute();
            page.getItems().forEach(c -> names.add(c.getMetadata().getName()));
            firstVersion = firstVersion == null ? page.getMetadata().getResourceVersion() : firstVersion;
            assertThat(page.getMetadata().getResourceVersion()).isEqualTo(firstVersion);
            token = page.getMetadata().getContinue();
            pages++;
            if (pages == 1) {
                server.create(configMap("cm-9", Map.of()));
            }
        } while (token != null && !token.isEmpty());
        assertThat(pages).isEqualTo(3);
        assertThat(names).as("later pages are the first page's snapshot, as the real server's: cm-9 came after it")
                .containsExactly("cm-0", "cm-1", "cm-2", "cm-3", "cm-4", "cm-5", "cm-6");
    }

    @Test
    void pagesStayInTheirNamespaceAndCountWhatRemains() throws ApiException {
        for (String namespace : List.of("a", "default", "default-2", "z")) {
            for (int i = 0; i < 3; i++) {
                server.create(configMap("cm-" + i, Map.of()).metadata(
                        new V1ObjectMeta().namespace(namespace).name("cm-" + i)));
            }
        }
        V1ConfigMapList first = core.listNamespacedConfigMap("default").limit(2).execute();
        assertThat(names(first)).containsExactly("cm-0", "cm-1");
        assertThat(first.getMetadata().getRemainingItemCount()).isEqualTo(1L);
        V1ConfigMapList last = core.listNamespacedConfigMap("default").limit(2)
                ._continue(first.getMetadata().getContinue()).execute();
        assertThat(names(last)).containsExactly("cm-2");
        assertThat(last.getMetadata().getContinue()).isNull();

        V1ConfigMapList all = core.listConfigMapForAllNamespaces().limit(5).execute();
        assertThat(all.getItems()).extracting(c -> c.getMetadata().getNamespace())
                .containsExactly("a", "a", "a", "default", "default");
        assertThat(all.getMetadata().getRemainingItemCount()).isEqualTo(7L);
    }

    @Test
    void pagesUnderASelectorSkipWhatItRejectsAndLeaveTheCountUnset() throws ApiException {
        for (int i = 0; i < 6; i++) {
            server.create(configMap("cm-" + i, Map.of("parity", i % 2 == 0 ? "even" : "odd")));
        }
        List<String> names = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            V1ConfigMapList page = core.listNamespacedConfigMap("default").labelSelector("parity=even").limit(2)
                    ._continue(token).execute();
            names.addAll(names(page));
            assertThat(page.getMetadata().getRemainingItemCount()).isNull();
            token = page.getMetadata().getContinue();
            pages++;
        } while (token != null && !token.isEmpty());
        assertThat(names).containsExactly("cm-0", "cm-2", "cm-4");
        assertThat(pages).as("no empty last page: the second page knows nothing selected follows").isEqualTo(2);
    }

    @Test
    void aListedObjectIsListedAnewAfterItChanges() throws ApiException {
        server.create(configMap("a", Map.of()));
        server.create(configMap("b", Map.of()));
        String before = http.get("/api/v1/namespaces/default/configmaps").body();
        assertThat(RawHttp.json(http.get("/api/v1/namespaces/default/configmaps")).getAsJsonArray("items")
                .get(0).getAsJsonObject()).isEqualTo(server.get("", "configmaps", "default", "a").orElseThrow());
        assertThat(http.get("/api/v1/namespaces/default/configmaps").body()).as("same bytes when nothing changed")
                .isEqualTo(before);

        V1ConfigMap a = core.readNamespacedConfigMap("a", "default").execute();
        core.replaceNamespacedConfigMap("a", "default", a.data(Map.of("k", "changed"))).execute();
        assertThat(core.listNamespacedConfigMap("default").execute().getItems())
                .extracting(c -> c.getData().get("k")).containsExactly("changed", "v");
        core.deleteNamespacedConfigMap("b", "default").execute();
        assertThat(names(core.listNamespacedConfigMap("default").execute())).containsExactly("a");
    }

    @Test
    void continueAfterCompactionIsExpired() throws ApiException {
        for (int i = 0; i < 4; i++) {
            server.create(configMap("cm-" + i, Map.of()));
        }
        String token = core.listNamespacedConfigMap("default").limit(2).execute().getMetadata().getContinue();
        server.create(configMap("later", Map.of()));
        server.compact();
        String continueToken = token;
        assertThatThrownBy(() -> core.listNamespacedConfigMap("default").limit(2)._continue(continueToken).execute())
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(410);
                    assertThat(e.getResponseBody()).contains("\"reason\":\"Expired\"");
                });
    }

    @Test
    void labelAndFieldSelectors() throws ApiException {
        server.create(configMap("a", Map.of("app", "web", "tier", "front")));
        server.create(configMap("b", Map.of("app", "web", "tier", "db")));
        server.create(configMap("c", Map.of("app", "batch")));
        server.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("a").namespace("other")));

        assertThat(names(core.listNamespacedConfigMap("default").labelSelector("app=web").execute()))
                .containsExactly("a", "b");
        assertThat(names(core.listNamespacedConfigMap("default").labelSelector("app==web,tier!=db").execute()))
                .containsExactly("a");
        assertThat(names(core.listNamespacedConfigMap("default").labelSelector("tier").execute()))
                .containsExactly("a", "b");
        assertThat(names(core.listNamespacedConfigMap("default").labelSelector("!tier").execute()))
                .containsExactly("c");
        assertThat(names(core.listNamespacedConfigMap("default").labelSelector("tier in (db, x)").execute()))
                .containsExactly("b");
        assertThat(names(core.listNamespacedConfigMap("default").labelSelector("app notin (web)").execute()))
                .containsExactly("c");
        assertThat(names(core.listConfigMapForAllNamespaces().fieldSelector("metadata.name=a").execute()))
                .containsExactly("a", "a");
        assertThat(names(core.listConfigMapForAllNamespaces()
                .fieldSelector("metadata.name=a,metadata.namespace!=default").execute())).containsExactly("a");
        assertThat(core.listConfigMapForAllNamespaces().fieldSelector("metadata.namespace=other").execute()
                .getItems()).extracting(c -> c.getMetadata().getNamespace()).containsExactly("other");
        assertThatThrownBy(() -> core.listNamespacedConfigMap("default").labelSelector("a in b").execute())
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(400));
    }

    @Test
    void clusterScopedNamespacesAndRawStatusShapes() {
        HttpResponse<String> created = http.send("POST", "/api/v1/namespaces", "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team\"}}");
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(RawHttp.json(http.get("/api/v1/namespaces/team")).getAsJsonObject("metadata")
                .has("namespace")).isFalse();
        HttpResponse<String> deleted = http.send("DELETE", "/api/v1/namespaces/team", null, null);
        assertThat(deleted.statusCode()).isEqualTo(200);
        assertThat(RawHttp.json(deleted).get("kind").getAsString()).isEqualTo("Namespace");

        JsonObject missing = RawHttp.json(http.get("/api/v1/namespaces/default/configmaps/nope"));
        assertThat(missing.get("kind").getAsString()).isEqualTo("Status");
        assertThat(missing.get("status").getAsString()).isEqualTo("Failure");
        assertThat(missing.get("code").getAsInt()).isEqualTo(404);

        assertThat(http.send("PUT", "/api/v1/namespaces/default/configmaps", "application/json", "{}").statusCode())
                .isEqualTo(405);
        assertThat(http.get("/api/v1/namespaces/default/widgets").statusCode()).isEqualTo(404);
        assertThat(http.send("PATCH", "/api/v1/namespaces/default/configmaps/x", "application/apply-patch+yaml",
                "{}").statusCode()).as("an apply without fieldManager").isEqualTo(422);
    }

    private static List<String> names(V1ConfigMapList list) {
        return list.getItems().stream().map(c -> c.getMetadata().getName()).toList();
    }
}
