package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.internal.api.ServerWaits;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.crd.CustomResourceDefinitions;
import dev.watchkeeper.internal.api.ApiErrors;
import dev.watchkeeper.internal.webhook.CrdConversions;
import dev.watchkeeper.internal.webhook.ResourceVersions;
import dev.watchkeeper.internal.webhook.WebhookClientConfig;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.ApiextensionsV1WebhookClientConfig;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.PatchOptions;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * With {@code watchkeeper.crds.apply=true}, for development: the CRD generated from each {@code @KubernetesResource}
 * class that a {@code @Reconciler} method reconciles, owns or watches is server-side applied (field manager
 * {@code watchkeeper}, forced) and waited for until Established, before the registry starts any watcher (which
 * would otherwise fail to list a resource the server does not serve yet). A CRD with several versions is applied
 * with its conversion webhook's address from the webhook properties (the CA bundle is the registration's to add,
 * {@code watchkeeper.webhooks.register}); without one start-up fails, since the API server would otherwise convert
 * by changing {@code apiVersion} alone. A failure stops start-up naming the CRD.
 */
final class StartUpCustomResourceDefinitions {

    static final String FIELD_MANAGER = CrdConversions.FIELD_MANAGER;

    /** How long a CRD may take to be Established: the API server needs a moment to serve a new resource. */
    static final Duration ESTABLISHED_WITHIN = Duration.ofSeconds(60);

    /** The first wait between two reads of a CRD, doubled after each up to {@link #LONGEST_POLL}. */
    private static final Duration FIRST_POLL = Duration.ofMillis(100);
    private static final Duration LONGEST_POLL = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(StartUpCustomResourceDefinitions.class);

    private final DynamicKubernetesApi definitions;
    private final TimeSource time;
    private final WebhookClientConfig conversion;

    /** @param conversion how the API server calls the conversion webhook; {@code null} when not configured */
    StartUpCustomResourceDefinitions(ApiClient client, TimeSource time, WebhookClientConfig conversion) {
        ServerWaits.on(client, time);
        this.definitions = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", client);
        this.time = time;
        this.conversion = conversion;
    }

    /** The custom resource classes the {@code @Reconciler} methods of the factory's beans read. */
    static Set<Class<? extends KubernetesObject>> reconciledTypes(ConfigurableListableBeanFactory beans) {
        Set<Class<? extends KubernetesObject>> types = new LinkedHashSet<>();
        for (String name : beans.getBeanDefinitionNames()) {
            Class<?> type = beans.getType(name, false);
            if (type == null) {
                continue;
            }
            for (Method method : ReflectionUtils.getUniqueDeclaredMethods(ClassUtils.getUserClass(type))) {
                Reconciler reconciler = AnnotatedElementUtils.findMergedAnnotation(method, Reconciler.class);
                if (reconciler == null || method.getParameterCount() == 0) {
                    continue;
                }
                List<Class<?>> read = new ArrayList<>(List.of(method.getParameterTypes()[0]));
                read.addAll(List.of(reconciler.owns()));
                read.addAll(List.of(reconciler.watches()));
                for (Class<?> candidate : read) {
                    KubernetesResource resource = candidate.getAnnotation(KubernetesResource.class);
                    if (resource != null && !resource.group().isEmpty()
                            && KubernetesObject.class.isAssignableFrom(candidate)) {
                        types.add(candidate.asSubclass(KubernetesObject.class));
                    }
                }
            }
        }
        return types;
    }

    /** Applies the CRD of each type, then waits until every one is Established. */
    void apply(Set<Class<? extends KubernetesObject>> types) throws InterruptedException {
        Instant start = time.clock().instant();
        List<String> names = new ArrayList<>();
        for (Class<? extends KubernetesObject> type : types) {
            boolean versioned = ResourceVersions.of(type).isPresent();
            if (versioned && conversion == null) {
                throw new IllegalStateException("watchkeeper.crds.apply: the CRD of " + type.getName() + " has"
                        + " several versions, so it needs its conversion webhook's address: set"
                        + " watchkeeper.webhooks.service.name or watchkeeper.webhooks.url");
            }
            ApiextensionsV1WebhookClientConfig clientConfig = versioned ? conversion.conversion(null) : null;
            JsonObject crd = JSON.getGson().toJsonTree(CustomResourceDefinitions.definition(type, clientConfig))
                    .getAsJsonObject();
            String name = crd.getAsJsonObject("metadata").get("name").getAsString();
            if (names.contains(name)) { // two versions of one resource
                continue;
            }
            if (versioned) {
                try {
                    CrdConversions.releaseOtherAddress(definitions, name, clientConfig);
                } catch (ApiException e) {
                    throw new IllegalStateException("watchkeeper.crds.apply: reading the CRD " + name + " failed: "
                            + ApiErrors.describe(e), e);
                }
            }
            PatchOptions options = new PatchOptions();
            options.setFieldManager(FIELD_MANAGER);
            options.setForce(true);
            KubernetesApiResponse<DynamicKubernetesObject> applied = definitions.patch(name,
                    V1Patch.PATCH_FORMAT_APPLY_YAML, new V1Patch(crd.toString()), options);
            if (!applied.isSuccess()) {
                throw new IllegalStateException("watchkeeper.crds.apply: applying the CRD " + name + " (from "
                        + type.getName() + ") failed with HTTP " + applied.getHttpStatusCode() + ": "
                        + message(applied) + (applied.getHttpStatusCode() == 403
                        ? "; the application needs the right to get and patch customresourcedefinitions"
                        + " (apiextensions.k8s.io), or leave watchkeeper.crds.apply off and apply them at deploy time"
                        : ""));
            }
            names.add(name);
        }
        for (String name : names) {
            awaitEstablished(name);
        }
        if (!names.isEmpty()) {
            log.info("Applied the CRDs {} and saw them Established in {} ms (watchkeeper.crds.apply=true)", names,
                    Duration.between(start, time.clock().instant()).toMillis());
        }
    }

    private void awaitEstablished(String name) throws InterruptedException {
        Instant deadline = time.clock().instant().plus(ESTABLISHED_WITHIN);
        Object monitor = new Object();
        String last = "not read yet";
        Duration poll = FIRST_POLL;
        while (time.clock().instant().isBefore(deadline)) {
            KubernetesApiResponse<DynamicKubernetesObject> read = definitions.get(name);
            if (read.isSuccess()) {
                if (established(read.getObject().getRaw())) {
                    return;
                }
                last = String.valueOf(read.getObject().getRaw().getAsJsonObject().get("status"));
            } else {
                last = "HTTP " + read.getHttpStatusCode() + ": " + message(read);
            }
            synchronized (monitor) {
                time.await(monitor, poll, () -> false);
            }
            poll = poll.multipliedBy(2).compareTo(LONGEST_POLL) > 0 ? LONGEST_POLL : poll.multipliedBy(2);
        }
        throw new IllegalStateException("watchkeeper.crds.apply: the CRD " + name + " was not Established within "
                + ESTABLISHED_WITHIN.toSeconds() + "s; last seen: " + last);
    }

    /** Whether the CRD's {@code Established} condition is {@code True}; a new CRD's status may not say yet. */
    private static boolean established(JsonObject crd) {
        JsonElement status = crd.get("status");
        JsonElement conditions = status != null && status.isJsonObject() ? status.getAsJsonObject().get("conditions")
                : null;
        if (conditions == null || !conditions.isJsonArray()) {
            return false;
        }
        for (JsonElement condition : conditions.getAsJsonArray()) {
            JsonObject c = condition.getAsJsonObject();
            if ("Established".equals(string(c, "type")) && "True".equals(string(c, "status"))) {
                return true;
            }
        }
        return false;
    }

    private static String string(JsonObject object, String name) {
        JsonElement value = object.get(name);
        return value != null && value.isJsonPrimitive() ? value.getAsString() : null;
    }

    private static String message(KubernetesApiResponse<?> response) {
        return response.getStatus() != null && response.getStatus().getMessage() != null
                ? response.getStatus().getMessage() : "no message";
    }
}
