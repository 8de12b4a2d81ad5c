package dev.watchkeeper.readme;

import dev.watchkeeper.webhook.AdmissionContext;
import dev.watchkeeper.webhook.AdmissionVerdict;
import dev.watchkeeper.webhook.MatchCondition;
import dev.watchkeeper.webhook.MutatingWebhook;
import dev.watchkeeper.webhook.Operation;
import dev.watchkeeper.webhook.ValidatingWebhook;
import io.kubernetes.client.openapi.models.V1ConfigMap;

/** Not a bean here: an application makes such a class a {@code @Component}. */
class AdmissionWebhooks {

    // tag::webhooks[]
    @ValidatingWebhook(type = V1ConfigMap.class, operations = {Operation.CREATE, Operation.UPDATE},
            matchConditions = @MatchCondition(name = "not-system", expression = "request.namespace != 'kube-system'"))
    AdmissionVerdict noPasswords(V1ConfigMap configMap, V1ConfigMap old, AdmissionContext request) {
        if (configMap.getData() != null && configMap.getData().containsKey("password")) {
            return AdmissionVerdict.deny("passwords belong in a Secret, not in ConfigMap " + request.name());
        }
        return old != null && old.getData() != null && !old.getData().equals(configMap.getData())
                ? AdmissionVerdict.allow().withWarning("pods read this ConfigMap at start only")
                : AdmissionVerdict.allow();
    }

    @MutatingWebhook(type = V1ConfigMap.class, operations = Operation.CREATE, timeoutSeconds = 5)
    void defaultTier(V1ConfigMap configMap) {         // the starter answers the JSON patch of what changed
        configMap.getMetadata().putLabelsItem("tier", "standard");
    }
    // end::webhooks[]
}
