package dev.watchkeeper.internal.webhook;

import dev.watchkeeper.internal.api.Calls;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.webhook.Operation;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.openapi.models.V1MatchCondition;
import io.kubernetes.client.openapi.models.V1MutatingWebhook;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1RuleWithOperations;
import io.kubernetes.client.openapi.models.V1ValidatingWebhook;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code ValidatingWebhookConfiguration} and {@code MutatingWebhookConfiguration} of the application's webhooks,
 * both named {@code name}, built from their definitions and written with server-side apply as field manager
 * {@code name}: applying the same webhooks again changes nothing, and a webhook removed from the code leaves the
 * configuration with it. Every webhook is {@code sideEffects: None} (a method must change nothing outside the
 * object; dry-run requests reach it) and speaks AdmissionReview v1 only.
 */
public final class WebhookConfigurations {

    private static final String GROUP_VERSION = "admissionregistration.k8s.io/v1";

    private final String name;
    private final WebhookClientConfig client;

    public WebhookConfigurations(String name, WebhookClientConfig client) {
        this.name = name;
        this.client = client;
    }

    /** Applies both configurations (one with no webhooks is not written); returns their names as applied. */
    public List<String> apply(ApiClient apiClient, List<WebhookDefinition> webhooks, byte[] caBundle)
            throws ApiException {
        V1ValidatingWebhookConfiguration validating = validating(webhooks, caBundle);
        V1MutatingWebhookConfiguration mutating = mutating(webhooks, caBundle);
        if (!validating.getWebhooks().isEmpty()) {
            apply(apiClient, "validatingwebhookconfigurations", validating);
        }
        if (!mutating.getWebhooks().isEmpty()) {
            apply(apiClient, "mutatingwebhookconfigurations", mutating);
        }
        return webhooks.stream().map(webhook -> webhook.kind() + " " + webhook.name()).toList();
    }

    /**
     * Server-side apply of {@code configuration}. The answer is not read: the client's decoding of it would reject a
     * field an API server newer than the client defaults, after the server has applied the configuration.
     */
    private void apply(ApiClient apiClient, String resource, Object configuration) throws ApiException {
        Map<String, String> headers = new HashMap<>(); // the client adds its credentials to it
        headers.put("Accept", "application/json");
        headers.put("Content-Type", V1Patch.PATCH_FORMAT_APPLY_YAML);
        Calls.body(apiClient.buildCall(null, "/apis/" + GROUP_VERSION + "/" + resource + "/" + name, "PATCH",
                List.of(new Pair("fieldManager", name), new Pair("force", "true")), List.of(),
                apiClient.getJSON().serialize(configuration), headers, Map.of(), Map.of(),
                new String[] {"BearerToken"}, null));
    }

    V1ValidatingWebhookConfiguration validating(List<WebhookDefinition> webhooks, byte[] caBundle) {
        return new V1ValidatingWebhookConfiguration().apiVersion(GROUP_VERSION).kind("ValidatingWebhookConfiguration")
                .metadata(new V1ObjectMeta().name(name))
                .webhooks(webhooks.stream().filter(webhook -> webhook.kind() == WebhookKind.VALIDATING)
                        .map(webhook -> new V1ValidatingWebhook().name(webhook.name())
                                .clientConfig(client.of(webhook.path(), caBundle))
                                .rules(List.of(rule(webhook)))
                                .failurePolicy(webhook.failurePolicy().wireName())
                                .sideEffects("None")
                                .timeoutSeconds(webhook.timeoutSeconds())
                                .admissionReviewVersions(List.of("v1"))
                                .matchConditions(conditions(webhook)))
                        .toList());
    }

    V1MutatingWebhookConfiguration mutating(List<WebhookDefinition> webhooks, byte[] caBundle) {
        return new V1MutatingWebhookConfiguration().apiVersion(GROUP_VERSION).kind("MutatingWebhookConfiguration")
                .metadata(new V1ObjectMeta().name(name))
                .webhooks(webhooks.stream().filter(webhook -> webhook.kind() == WebhookKind.MUTATING)
                        .map(webhook -> new V1MutatingWebhook().name(webhook.name())
                                .clientConfig(client.of(webhook.path(), caBundle))
                                .rules(List.of(rule(webhook)))
                                .failurePolicy(webhook.failurePolicy().wireName())
                                .sideEffects("None")
                                .timeoutSeconds(webhook.timeoutSeconds())
                                .admissionReviewVersions(List.of("v1"))
                                .reinvocationPolicy("Never")
                                .matchConditions(conditions(webhook)))
                        .toList());
    }

    private static V1RuleWithOperations rule(WebhookDefinition webhook) {
        ResourceType<?> type = webhook.type();
        return new V1RuleWithOperations().apiGroups(List.of(type.group())).apiVersions(List.of(type.version()))
                .resources(List.of(type.likelyPlural()))
                .operations(webhook.operations().stream().map(Operation::name).toList())
                .scope(type.namespaced() == null ? "*" : type.namespaced() ? "Namespaced" : "Cluster");
    }

    private static List<V1MatchCondition> conditions(WebhookDefinition webhook) {
        return webhook.matchConditions().entrySet().stream()
                .map(condition -> new V1MatchCondition().name(condition.getKey()).expression(condition.getValue()))
                .toList();
    }
}

