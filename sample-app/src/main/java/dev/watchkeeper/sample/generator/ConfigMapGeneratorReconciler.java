package dev.watchkeeper.sample.generator;

import dev.watchkeeper.annotation.Cleanup;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.reconcile.Conditions;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.Trigger;
import dev.watchkeeper.store.Store;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Makes the ConfigMaps of each {@link ConfigMapGenerator} match its spec with server-side apply (owned by the
 * generator, so the garbage collector deletes them with it), deletes surplus ones it controls, and reports a
 * {@code Ready} condition counting the ConfigMaps ({@link ReconcileContext#updateConditions}, which also writes
 * {@code status.observedGeneration}). Should a reconcile fail, Watchkeeper reports it in {@code Reconciling} or
 * {@code Stalled}. Its finalizer keeps a deleted generator until {@link #cleanup} has recorded an Event about it.
 *
 * <p>It reconciles on spec changes only ({@link Trigger#GENERATION}), so its own status writes do not wake it,
 * and on any change of a ConfigMap it controls (a hand edit or delete is undone).
 */
@Component
public class ConfigMapGeneratorReconciler {

    /** The generation of the generator a ConfigMap was last written for. */
    public static final String GENERATION_ANNOTATION = ConfigMapGenerator.GROUP + "/generation";

    /** The name of the generator of a ConfigMap. */
    public static final String GENERATOR_LABEL = ConfigMapGenerator.GROUP + "/generator";

    /** Held by every generator until {@link #cleanup} has run for it. */
    public static final String FINALIZER = ConfigMapGenerator.GROUP + "/cleanup";

    private static final Logger log = LoggerFactory.getLogger(ConfigMapGeneratorReconciler.class);

    @Reconciler(name = "configmap-generator", namespace = "${sample.namespace:}", owns = V1ConfigMap.class,
            triggerOn = Trigger.GENERATION, finalizer = FINALIZER)
    public void reconcile(ConfigMapGenerator generator, ReconcileContext context)
            throws ApiException, InterruptedException {
        String namespace = generator.getMetadata().getNamespace();
        Store<V1ConfigMap> cache = context.store(V1ConfigMap.class);
        Map<String, V1ConfigMap> desired = desired(generator);
        List<String> conflicts = new ArrayList<>();
        List<String> changes = new ArrayList<>();
        for (V1ConfigMap wanted : desired.values()) {
            String name = wanted.getMetadata().getName();
            V1ConfigMap current = cache.get(namespace, name).orElse(null);
            if (current != null && !controlledBy(current, generator)) {
                conflicts.add(name);
            } else if (current == null || !upToDate(current, wanted)) {
                context.applyOwned(wanted);
                changes.add("applied " + name);
            }
        }
        // The ones it controls, from the store's owner index: not a scan of every ConfigMap in the namespace.
        for (V1ConfigMap owned : context.owned(V1ConfigMap.class)) {
            String name = owned.getMetadata().getName();
            if (!desired.containsKey(name)) {
                delete(new CoreV1Api(context.apiClient()), namespace, name);
                changes.add("deleted " + name);
            }
        }
        if (!changes.isEmpty()) {
            log.info("generator {}/{} (generation {}): {}", namespace, generator.getMetadata().getName(),
                    generator.getMetadata().getGeneration(), String.join(", ", changes));
        }
        int count = desired.size();
        context.updateConditions(generator, conditions -> {
            if (conflicts.isEmpty()) {
                conditions.set(Conditions.READY, true, "Reconciled", count + " ConfigMaps up to date");
            } else {
                conditions.set(Conditions.READY, false, "NameConflict", "ConfigMaps " + String.join(", ", conflicts)
                        + " exist and belong to someone else");
            }
        });
    }

    /** Runs once a generator is being deleted; the garbage collector deletes its ConfigMaps after it. */
    @Cleanup
    public void cleanup(ConfigMapGenerator generator, ReconcileContext context) {
        log.info("generator {} deleted; the garbage collector removes its ConfigMaps", context.key());
        context.publishEvent("Normal", "CleanedUp", "deleted; the garbage collector removes its ConfigMaps");
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
                            .putAnnotationsItem(GENERATION_ANNOTATION, String.valueOf(meta.getGeneration())))
                    .data(new LinkedHashMap<>(spec.getContent())));
        }
        return desired;
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
}
