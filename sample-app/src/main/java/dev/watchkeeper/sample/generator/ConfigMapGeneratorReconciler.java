package dev.watchkeeper.sample.generator;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.reconcile.Trigger;
import dev.watchkeeper.store.Store;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Makes the ConfigMaps of each {@link ConfigMapGenerator} match its spec: creates missing ones, updates changed
 * ones, deletes surplus ones it controls, and reports {@code status.observedGeneration} and a {@code Ready}
 * condition through the status subresource.
 *
 * <p>It reconciles on spec changes only ({@link Trigger#GENERATION}), so its own status writes do not wake it,
 * and on any change of a ConfigMap it controls (a hand edit or delete is undone). Reads come from the caches;
 * every write carries the resourceVersion it was based on, so a stale cache ends in a 409 and a retry, never in
 * a lost update.
 */
@Component
public class ConfigMapGeneratorReconciler {

    /** The generation of the generator a ConfigMap was last written for. */
    public static final String GENERATION_ANNOTATION = ConfigMapGenerator.GROUP + "/generation";

    /** The name of the generator of a ConfigMap. */
    public static final String GENERATOR_LABEL = ConfigMapGenerator.GROUP + "/generator";

    private static final Logger log = LoggerFactory.getLogger(ConfigMapGeneratorReconciler.class);

    @Reconciler(name = "configmap-generator", namespace = "${sample.namespace:}", owns = V1ConfigMap.class,
            triggerOn = Trigger.GENERATION)
    public ReconcileResult reconcile(ConfigMapGenerator generator, ReconcileContext context) throws ApiException {
        V1ObjectMeta meta = generator.getMetadata();
        if (meta.getDeletionTimestamp() != null) {
            return ReconcileResult.done(); // the garbage collector deletes what it owns
        }
        String namespace = meta.getNamespace();
        Store<V1ConfigMap> cache = context.store(V1ConfigMap.class);
        CoreV1Api core = new CoreV1Api(context.apiClient());
        Map<String, V1ConfigMap> desired = desired(generator);
        List<String> conflicts = new ArrayList<>();
        List<String> changes = new ArrayList<>();

        for (V1ConfigMap wanted : desired.values()) {
            String name = wanted.getMetadata().getName();
            V1ConfigMap current = cache.get(namespace, name).orElse(null);
            if (current == null) {
                current = create(core, wanted);
                if (current == null) {
                    changes.add("created " + name);
                    continue;
                }
            }
            if (!controlledBy(current, generator)) {
                conflicts.add(name);
            } else if (!upToDate(current, wanted)) {
                wanted.getMetadata().resourceVersion(current.getMetadata().getResourceVersion());
                core.replaceNamespacedConfigMap(name, namespace, wanted).execute();
                changes.add("updated " + name);
            }
        }
        for (V1ConfigMap owned : cache.listInNamespace(namespace)) {
            String name = owned.getMetadata().getName();
            if (controlledBy(owned, generator) && !desired.containsKey(name)) {
                delete(core, namespace, name);
                changes.add("deleted " + name);
            }
        }
        if (!changes.isEmpty()) {
            log.info("generator {}/{} (generation {}): {}", namespace, meta.getName(), meta.getGeneration(),
                    String.join(", ", changes));
        }
        writeStatus(context, generator, conflicts);
        return ReconcileResult.done();
    }

    /** The ConfigMaps the generator asks for, by name. */
    static Map<String, V1ConfigMap> desired(ConfigMapGenerator generator) {
        V1ObjectMeta meta = generator.getMetadata();
        ConfigMapGenerator.Spec spec = generator.getSpec() != null ? generator.getSpec() : new ConfigMapGenerator.Spec();
        String prefix = spec.getNamePrefix() != null ? spec.getNamePrefix() : meta.getName();
        Map<String, V1ConfigMap> desired = new LinkedHashMap<>();
        for (int i = 0; i < spec.getReplicas(); i++) {
            String name = prefix + "-" + i;
            desired.put(name, new V1ConfigMap()
                    .apiVersion("v1").kind("ConfigMap")
                    .metadata(new V1ObjectMeta()
                            .namespace(meta.getNamespace())
                            .name(name)
                            .putLabelsItem(GENERATOR_LABEL, meta.getName())
                            .putAnnotationsItem(GENERATION_ANNOTATION, String.valueOf(meta.getGeneration()))
                            .addOwnerReferencesItem(new V1OwnerReference()
                                    .apiVersion(ConfigMapGenerator.API_VERSION)
                                    .kind(ConfigMapGenerator.KIND)
                                    .name(meta.getName())
                                    .uid(meta.getUid())
                                    .controller(true)
                                    .blockOwnerDeletion(true)))
                    .data(new LinkedHashMap<>(spec.getContent())));
        }
        return desired;
    }

    /** Creates {@code wanted}; returns {@code null}, or the existing object when the cache had not seen it yet. */
    private static V1ConfigMap create(CoreV1Api core, V1ConfigMap wanted) throws ApiException {
        String namespace = wanted.getMetadata().getNamespace();
        try {
            core.createNamespacedConfigMap(namespace, wanted).execute();
            return null;
        } catch (ApiException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            return core.readNamespacedConfigMap(wanted.getMetadata().getName(), namespace).execute();
        }
    }

    private static void delete(CoreV1Api core, String namespace, String name) throws ApiException {
        try {
            core.deleteNamespacedConfigMap(name, namespace).execute();
        } catch (ApiException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    private static boolean controlledBy(V1ConfigMap configMap, ConfigMapGenerator generator) {
        List<V1OwnerReference> owners = configMap.getMetadata().getOwnerReferences();
        return owners != null && owners.stream().anyMatch(owner -> Boolean.TRUE.equals(owner.getController())
                && Objects.equals(owner.getUid(), generator.getMetadata().getUid()));
    }

    private static boolean upToDate(V1ConfigMap current, V1ConfigMap wanted) {
        Map<String, String> data = current.getData() == null ? Map.of() : current.getData();
        Map<String, String> annotations = current.getMetadata().getAnnotations() == null ? Map.of()
                : current.getMetadata().getAnnotations();
        return data.equals(wanted.getData()) && Objects.equals(annotations.get(GENERATION_ANNOTATION),
                wanted.getMetadata().getAnnotations().get(GENERATION_ANNOTATION));
    }

    /** Writes observedGeneration and the Ready condition when they changed; a stale resourceVersion retries. */
    private static void writeStatus(ReconcileContext context, ConfigMapGenerator generator, List<String> conflicts)
            throws ApiException {
        V1ObjectMeta meta = generator.getMetadata();
        boolean ready = conflicts.isEmpty();
        String reason = ready ? "Reconciled" : "NameConflict";
        String message = ready
                ? generator.getSpec().getReplicas() + " ConfigMaps up to date"
                : "ConfigMaps " + String.join(", ", conflicts) + " exist and belong to someone else";
        ConfigMapGenerator.Status status = generator.getStatus();
        V1Condition previous = status == null ? null : status.getConditions().stream()
                .filter(c -> "Ready".equals(c.getType())).findFirst().orElse(null);
        String statusValue = ready ? "True" : "False";
        if (status != null && Objects.equals(status.getObservedGeneration(), meta.getGeneration()) && previous != null
                && statusValue.equals(previous.getStatus()) && reason.equals(previous.getReason())
                && message.equals(previous.getMessage())) {
            return;
        }
        OffsetDateTime transition = previous != null && statusValue.equals(previous.getStatus())
                ? previous.getLastTransitionTime()
                : OffsetDateTime.now(ZoneOffset.UTC).withNano(0);
        V1Condition condition = new V1Condition().type("Ready").status(statusValue).reason(reason).message(message)
                .observedGeneration(meta.getGeneration()).lastTransitionTime(transition);

        ConfigMapGenerator update = new ConfigMapGenerator();
        update.setMetadata(new V1ObjectMeta().namespace(meta.getNamespace()).name(meta.getName())
                .resourceVersion(meta.getResourceVersion()));
        update.setSpec(generator.getSpec());
        update.setStatus(new ConfigMapGenerator.Status().observedGeneration(meta.getGeneration())
                .conditions(List.of(condition)));
        new CustomObjectsApi(context.apiClient()).replaceNamespacedCustomObjectStatus(ConfigMapGenerator.GROUP,
                ConfigMapGenerator.VERSION, meta.getNamespace(), ConfigMapGenerator.PLURAL, meta.getName(), update)
                .execute();
    }
}
