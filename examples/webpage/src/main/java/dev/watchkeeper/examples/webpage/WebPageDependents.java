package dev.watchkeeper.examples.webpage;

import dev.watchkeeper.reconcile.Dependent;
import dev.watchkeeper.reconcile.Dependents;
import dev.watchkeeper.reconcile.ReconcileContext;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapVolumeSource;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1HTTPIngressPath;
import io.kubernetes.client.openapi.models.V1HTTPIngressRuleValue;
import io.kubernetes.client.openapi.models.V1Ingress;
import io.kubernetes.client.openapi.models.V1IngressBackend;
import io.kubernetes.client.openapi.models.V1IngressRule;
import io.kubernetes.client.openapi.models.V1IngressServiceBackend;
import io.kubernetes.client.openapi.models.V1IngressSpec;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceBackendPort;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.openapi.models.V1VolumeMount;
import java.util.List;
import java.util.Map;

/**
 * What a {@link WebPage} owns, as the original declares it: a ConfigMap {@code <name>-html} holding the page, an nginx
 * Deployment {@code <name>} that mounts it, a NodePort Service {@code <name>} in front of the Deployment, and an Ingress
 * {@code <name>} only while the page is exposed. Every child carries the label {@code managed=true}; unlike the
 * original, the Ingress does too, so it is cached and deleted once the page is no longer exposed. The original
 * declares them without dependencies or ready conditions, and so does this port.
 */
final class WebPageDependents {

    static final String MANAGED = "managed";
    static final String IMAGE = "nginx:1.17.0";

    // tag::dependents[]
    static final Dependents<WebPage> DEPENDENTS = Dependents.of(WebPage.class,
            Dependent.of("html", V1ConfigMap.class, WebPageDependents::configMap),
            Dependent.of("deployment", V1Deployment.class, WebPageDependents::deployment),
            Dependent.of("service", V1Service.class, WebPageDependents::service),
            Dependent.of("ingress", V1Ingress.class, WebPageDependents::ingress).activeWhen(WebPageDependents::exposed));
    // end::dependents[]

    private WebPageDependents() {
    }

    static String configMapName(WebPage page) {
        return page.getMetadata().getName() + "-html";
    }

    static V1ConfigMap configMap(WebPage page, ReconcileContext context) {
        return new V1ConfigMap().metadata(child(page, configMapName(page)))
                .data(Map.of("index.html", page.getSpec().getHtml()));
    }

    static V1Deployment deployment(WebPage page, ReconcileContext context) {
        String name = page.getMetadata().getName();
        Map<String, String> app = Map.of("app", name);
        return new V1Deployment().metadata(child(page, name)).spec(new V1DeploymentSpec().replicas(1)
                .selector(new V1LabelSelector().matchLabels(app))
                .template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(app)).spec(new V1PodSpec()
                        .containers(List.of(new V1Container().name("nginx").image(IMAGE)
                                .ports(List.of(new V1ContainerPort().containerPort(80)))
                                .volumeMounts(List.of(new V1VolumeMount().name("html-volume")
                                        .mountPath("/usr/share/nginx/html")))))
                        .volumes(List.of(new V1Volume().name("html-volume")
                                .configMap(new V1ConfigMapVolumeSource().name(configMapName(page))))))));
    }

    static V1Service service(WebPage page, ReconcileContext context) {
        String name = page.getMetadata().getName();
        return new V1Service().metadata(child(page, name)).spec(new V1ServiceSpec().type("NodePort")
                .selector(Map.of("app", name))
                .ports(List.of(new V1ServicePort().protocol("TCP").port(80).targetPort(new IntOrString(80)))));
    }

    static V1Ingress ingress(WebPage page, ReconcileContext context) {
        String name = page.getMetadata().getName();
        V1ObjectMeta metadata = child(page, name).annotations(Map.of("nginx.ingress.kubernetes.io/rewrite-target", "/$1"));
        return new V1Ingress().metadata(metadata).spec(new V1IngressSpec().rules(List.of(new V1IngressRule()
                .http(new V1HTTPIngressRuleValue().paths(List.of(new V1HTTPIngressPath().path("/").pathType("Prefix")
                        .backend(new V1IngressBackend().service(new V1IngressServiceBackend().name(name)
                                .port(new V1ServiceBackendPort().number(80))))))))));
    }

    static boolean exposed(WebPage page) {
        return page.getSpec().isExposed();
    }

    private static V1ObjectMeta child(WebPage page, String name) {
        return new V1ObjectMeta().namespace(page.getMetadata().getNamespace()).name(name)
                .labels(Map.of(MANAGED, "true"));
    }
}
