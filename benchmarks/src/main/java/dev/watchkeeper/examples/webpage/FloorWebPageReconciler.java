package dev.watchkeeper.examples.webpage;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.reconcile.ReconcileContext;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Ingress;
import io.kubernetes.client.openapi.models.V1Service;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiPredicate;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The floor of the dependents benchmark: the WebPage reconciler written by hand, in the style of the sample (and of
 * the original's classic flavour): each child is read from the owner index, compared field by field on what this
 * reconciler sets, and applied only when it differs; the Ingress is deleted when the page is no longer exposed. The
 * same children as the dependents build, so the two cost the same requests when both are right.
 */
@Component
@ConditionalOnProperty(name = "webpage.reconciler", havingValue = "floor")
class FloorWebPageReconciler {

    @Reconciler(name = "webpage", namespace = "${webpage.namespace:}",
            owns = {V1ConfigMap.class, V1Deployment.class, V1Service.class, V1Ingress.class})
    void reconcile(WebPage page, ReconcileContext context) throws ApiException, InterruptedException {
        WebPageStatus.failOnSimulatedError(page, context);
        if (!WebPageStatus.isValidHtml(page)) {
            WebPageStatus.invalidHtml(page, context);
            return;
        }
        V1ConfigMap configMap = WebPageDependents.configMap(page, context);
        applyUnlessSame(context, configMap, V1ConfigMap.class,
                (cached, wanted) -> Objects.equals(cached.getData(), wanted.getData()));
        applyUnlessSame(context, WebPageDependents.deployment(page, context), V1Deployment.class,
                (cached, wanted) -> Objects.equals(cached.getSpec().getReplicas(), wanted.getSpec().getReplicas())
                        && Objects.equals(image(cached), image(wanted)));
        applyUnlessSame(context, WebPageDependents.service(page, context), V1Service.class,
                (cached, wanted) -> Objects.equals(cached.getSpec().getSelector(), wanted.getSpec().getSelector()));
        V1Ingress ingress = WebPageDependents.ingress(page, context);
        if (WebPageDependents.exposed(page)) {
            applyUnlessSame(context, ingress, V1Ingress.class, (cached, wanted) -> Objects.equals(
                    cached.getSpec().getRules().get(0).getHttp().getPaths().get(0).getBackend().getService().getName(),
                    wanted.getSpec().getRules().get(0).getHttp().getPaths().get(0).getBackend().getService()
                            .getName()));
        } else {
            Optional<V1Ingress> cached = cached(context, V1Ingress.class, ingress.getMetadata().getName());
            if (cached.isPresent()) {
                context.delete(cached.get());
            }
        }
        WebPageStatus.good(page, context);
    }

    private static <S extends KubernetesObject> void applyUnlessSame(ReconcileContext context, S wanted,
            Class<S> type, BiPredicate<S, S> same) throws ApiException {
        Optional<S> cached = cached(context, type, wanted.getMetadata().getName());
        if (cached.isEmpty() || !same.test(cached.get(), wanted)) {
            context.applyOwned(wanted);
        }
    }

    private static <S extends KubernetesObject> Optional<S> cached(ReconcileContext context, Class<S> type,
            String name) {
        return context.owned(type).stream().filter(object -> name.equals(object.getMetadata().getName())).findFirst();
    }

    private static String image(V1Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    }
}
