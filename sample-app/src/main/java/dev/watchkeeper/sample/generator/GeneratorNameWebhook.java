package dev.watchkeeper.sample.generator;

import dev.watchkeeper.store.Store;
import dev.watchkeeper.webhook.AdmissionContext;
import dev.watchkeeper.webhook.AdmissionVerdict;
import dev.watchkeeper.webhook.Operation;
import dev.watchkeeper.webhook.ValidatingWebhook;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.util.List;
import java.util.Objects;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.stereotype.Component;

/**
 * Refuses a generator whose {@code namePrefix} would take over a ConfigMap it does not control, naming that
 * ConfigMap, instead of letting the reconciler report the conflict in a condition afterwards. A lookup in the
 * reconciler's ConfigMap cache, no API call. Only with {@code watchkeeper.webhooks.enabled=true} or an address the
 * API server calls from outside the cluster ({@code watchkeeper.webhooks.url}, which also registers it), so the
 * sample's default run needs no certificate or registration. Under Spring AOT the jar decides this when it is built.
 */
@Component
@ConditionalOnExpression("${watchkeeper.webhooks.enabled:false} or '${watchkeeper.webhooks.url:}' != ''")
public class GeneratorNameWebhook {

    private final Store<V1ConfigMap> configMaps;

    /** {@code configMaps}: the store of the reconciler's owned ConfigMaps, the only one the sample has. */
    public GeneratorNameWebhook(Store<V1ConfigMap> configMaps) {
        this.configMaps = configMaps;
    }

    @ValidatingWebhook(type = ConfigMapGenerator.class, operations = {Operation.CREATE, Operation.UPDATE},
            name = "generator-names.samples.watchkeeper.dev")
    public AdmissionVerdict noTakeOver(ConfigMapGenerator generator, AdmissionContext request) {
        for (String name : ConfigMapGeneratorReconciler.desired(generator).keySet()) {
            V1ConfigMap existing = configMaps.get(request.namespace(), name).orElse(null);
            if (existing != null && !controlledBy(existing, generator)) {
                return AdmissionVerdict.deny("ConfigMap " + request.namespace() + "/" + name + " exists and is not"
                        + " generator " + request.name() + "'s: choose another namePrefix");
            }
        }
        return AdmissionVerdict.allow();
    }

    /** On CREATE the generator has no uid yet, so nothing existing can be its own. */
    private static boolean controlledBy(V1ConfigMap configMap, ConfigMapGenerator generator) {
        List<V1OwnerReference> owners = configMap.getMetadata().getOwnerReferences();
        String uid = generator.getMetadata().getUid();
        return uid != null && owners != null && owners.stream().anyMatch(owner ->
                Boolean.TRUE.equals(owner.getController()) && Objects.equals(owner.getUid(), uid));
    }
}
