package dev.watchkeeper.examples.webpage;

import dev.watchkeeper.annotation.KubernetesResource;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * A {@code WebPage} ({@code sample.javaoperatorsdk/v1}, the original's group, so its manifests apply unchanged): a
 * static page, served by nginx, and exposed through an Ingress when asked.
 *
 * <pre>
 * apiVersion: sample.javaoperatorsdk/v1
 * kind: WebPage
 * metadata: {name: hello}
 * spec: {html: "&lt;html&gt;...&lt;/html&gt;", exposed: false}
 * </pre>
 */
@KubernetesResource(group = WebPage.GROUP, version = "v1", plural = "webpages")
public class WebPage implements KubernetesObject {

    public static final String GROUP = "sample.javaoperatorsdk";

    private String apiVersion = GROUP + "/v1";
    private String kind = "WebPage";
    private V1ObjectMeta metadata;
    private Spec spec;
    private Status status;

    /** A page {@code namespace/name} with {@code html}, not exposed. */
    public static WebPage of(String namespace, String name, String html) {
        WebPage page = new WebPage();
        page.setMetadata(new V1ObjectMeta().namespace(namespace).name(name));
        page.setSpec(new Spec().html(html));
        return page;
    }

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    public void setApiVersion(String apiVersion) {
        this.apiVersion = apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    @Override
    public V1ObjectMeta getMetadata() {
        return metadata;
    }

    public void setMetadata(V1ObjectMeta metadata) {
        this.metadata = metadata;
    }

    public Spec getSpec() {
        return spec;
    }

    public void setSpec(Spec spec) {
        this.spec = spec;
    }

    public Status getStatus() {
        return status;
    }

    public void setStatus(Status status) {
        this.status = status;
    }

    /** The page and whether to expose it. */
    public static class Spec {

        private String html;
        private Boolean exposed;

        public String getHtml() {
            return html;
        }

        public Spec html(String html) {
            this.html = html;
            return this;
        }

        /** Whether an Ingress is wanted; default no. */
        public boolean isExposed() {
            return Boolean.TRUE.equals(exposed);
        }

        public Spec exposed(boolean exposed) {
            this.exposed = exposed;
            return this;
        }
    }

    /** The outcome of the last reconcile. */
    public static class Status {

        private String htmlConfigMap;
        private Boolean areWeGood;
        private String errorMessage;

        /** The ConfigMap that holds the page. */
        public String getHtmlConfigMap() {
            return htmlConfigMap;
        }

        public Status htmlConfigMap(String htmlConfigMap) {
            this.htmlConfigMap = htmlConfigMap;
            return this;
        }

        /** Whether the last reconcile succeeded. */
        public Boolean getAreWeGood() {
            return areWeGood;
        }

        public Status areWeGood(Boolean areWeGood) {
            this.areWeGood = areWeGood;
            return this;
        }

        /** Why the last reconcile failed, or {@code null}. */
        public String getErrorMessage() {
            return errorMessage;
        }

        public Status errorMessage(String errorMessage) {
            this.errorMessage = errorMessage;
            return this;
        }
    }
}
