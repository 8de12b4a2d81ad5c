package dev.watchkeeper.examples.webpage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.NetworkingV1Api;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1Ingress;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The original's end-to-end test ({@code WebPageOperatorE2E} and its two flavour variants), turned into ours and run
 * on each server by a subclass, for each flavour: a page is created, served once its Deployment is ready, changed,
 * and deleted. Two steps differ, since neither server has a kubelet: the Deployment's readiness is written by the test
 * as the Deployment controller would once the pods are ready, and instead of fetching the page over a port-forward
 * (which needs a running nginx) the test reads what nginx would serve: the ConfigMap the Deployment mounts. Beyond the
 * original's checks: an exposed page gets its Ingress and loses it when no longer exposed, and the error paths set
 * the status messages the original sets.
 */
@SpringBootTest(classes = WebPageOperator.class, properties = "watchkeeper.crds.apply=true")
@DirtiesContext
abstract class WebPageScenarios {

    static final String NAME = "test-page";
    static final String TITLE1 = "Hello Operator World";
    static final String TITLE2 = "Hello Operator World Title 2";
    /** The original waits up to 360 s for what a kubelet does; here nothing waits for a kubelet. */
    static final Duration WAIT = Duration.ofSeconds(30);
    /** The real garbage collector starts watching a new custom resource at its next discovery (every 30 s). */
    static final Duration GARBAGE_COLLECTED = Duration.ofSeconds(100);

    @Autowired
    ApiClient client;

    abstract String namespace();

    /** Whether this flavour validates the HTML (the original's managed flavour does not). */
    abstract boolean validatesHtml();

    @Test
    void aPageIsServedChangedExposedAndDeleted() throws Exception {
        String ns = namespace();
        DynamicKubernetesApi pages = new DynamicKubernetesApi(WebPage.GROUP, "v1", "webpages", client);
        CoreV1Api core = new CoreV1Api(client);
        AppsV1Api apps = new AppsV1Api(client);
        NetworkingV1Api networking = new NetworkingV1Api(client);
        pages.create(page(ns, html(TITLE1))).throwsApiException();

        // The Deployment is made; its pods come up (written as the Deployment controller would); the page is good.
        V1Deployment deployment = await().atMost(WAIT).ignoreExceptions()
                .until(() -> apps.readNamespacedDeployment(NAME, ns).execute(), d -> d != null);
        assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
                .isEqualTo(WebPageDependents.IMAGE);
        deployment.status(new V1DeploymentStatus().observedGeneration(deployment.getMetadata().getGeneration())
                .replicas(1).updatedReplicas(1).readyReplicas(1).availableReplicas(1));
        apps.replaceNamespacedDeploymentStatus(NAME, ns, deployment).execute();
        await().atMost(WAIT).until(() -> {
            JsonObject status = status(pages);
            V1Deployment current = apps.readNamespacedDeployment(NAME, ns).execute();
            return status != null && status.has("areWeGood") && status.get("areWeGood").getAsBoolean()
                    && current.getSpec().getReplicas().equals(current.getStatus().getReadyReplicas());
        });
        assertThat(status(pages).get("htmlConfigMap").getAsString()).isEqualTo(NAME + "-html");

        // What nginx serves: the ConfigMap mounted at its document root holds the page.
        assertThat(deployment.getSpec().getTemplate().getSpec().getVolumes().get(0).getConfigMap().getName())
                .isEqualTo(NAME + "-html");
        assertThat(core.readNamespacedConfigMap(NAME + "-html", ns).execute().getData().get("index.html"))
                .contains(TITLE1);
        assertThat(core.readNamespacedService(NAME, ns).execute().getSpec().getType()).isEqualTo("NodePort");

        // A new title reaches the page's ConfigMap.
        update(pages, page -> spec(page).addProperty("html", html(TITLE2)));
        await().atMost(WAIT).until(() -> core.readNamespacedConfigMap(NAME + "-html", ns).execute().getData()
                .get("index.html").contains(TITLE2));

        // Exposed: an Ingress to the Service; no longer exposed: it goes.
        update(pages, page -> spec(page).addProperty("exposed", true));
        V1Ingress ingress = await().atMost(WAIT).ignoreExceptions()
                .until(() -> networking.readNamespacedIngress(NAME, ns).execute(), i -> i != null);
        assertThat(ingress.getSpec().getRules().get(0).getHttp().getPaths().get(0).getBackend().getService().getName())
                .isEqualTo(NAME);
        update(pages, page -> spec(page).addProperty("exposed", false));
        await().atMost(WAIT).until(() -> !exists(() -> networking.readNamespacedIngress(NAME, ns).execute()));

        // The error paths of the original: a simulated error, and (where the flavour checks) HTML that is not HTML.
        update(pages, page -> spec(page).addProperty("html", html("an error")));
        await().atMost(WAIT).until(() -> "Error: Simulating error".equals(string(status(pages), "errorMessage")));
        if (validatesHtml()) {
            update(pages, page -> spec(page).addProperty("html", "<p>not a page</p>"));
            await().atMost(WAIT).until(() -> "Invalid html.".equals(string(status(pages), "errorMessage")));
        }

        // Deleted: the garbage collector takes the Deployment with the page.
        pages.delete(ns, NAME).throwsApiException();
        await().atMost(GARBAGE_COLLECTED).until(() -> !exists(() -> apps.readNamespacedDeployment(NAME, ns).execute()));
    }

    static String html(String title) {
        return "<html>\n  <head>\n    <title>" + title + "</title>\n  </head>\n  <body>\n    Hello World!\n"
                + "  </body>\n</html>\n";
    }

    private static DynamicKubernetesObject page(String namespace, String html) {
        JsonObject raw = new JsonObject();
        raw.addProperty("apiVersion", WebPage.GROUP + "/v1");
        raw.addProperty("kind", "WebPage");
        JsonObject metadata = new JsonObject();
        metadata.addProperty("namespace", namespace);
        metadata.addProperty("name", NAME);
        raw.add("metadata", metadata);
        JsonObject spec = new JsonObject();
        spec.addProperty("html", html);
        raw.add("spec", spec);
        return new DynamicKubernetesObject(raw);
    }

    private static JsonObject spec(DynamicKubernetesObject page) {
        return page.getRaw().getAsJsonObject("spec");
    }

    private JsonObject status(DynamicKubernetesApi pages) throws ApiException {
        return pages.get(namespace(), NAME).throwsApiException().getObject().getRaw().getAsJsonObject("status");
    }

    private static String string(JsonObject object, String field) {
        return object == null || !object.has(field) || object.get(field).isJsonNull() ? null
                : object.get(field).getAsString();
    }

    /** A full replace of the page, as the original's test makes, retried on a conflict with the operator's writes. */
    private void update(DynamicKubernetesApi pages, Consumer<DynamicKubernetesObject> change) {
        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> {
            DynamicKubernetesObject page = pages.get(namespace(), NAME).throwsApiException().getObject();
            change.accept(page);
            pages.update(page).throwsApiException();
        });
    }

    private static boolean exists(Read read) {
        try {
            read.run();
            return true;
        } catch (ApiException e) {
            if (e.getCode() == 404) {
                return false;
            }
            throw new IllegalStateException(e);
        }
    }

    @FunctionalInterface
    private interface Read {
        void run() throws ApiException;
    }
}
