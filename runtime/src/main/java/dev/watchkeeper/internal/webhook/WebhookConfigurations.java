package dev.watchkeeper.internal.webhook;

import dev.watchkeeper.resource.ResourceType;
import dev.watchkeeper.webhook.Operation;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api;
import io.kubernetes.client.openapi.models.V1MatchCondition;
import io.kubernetes.client.openapi.models.V1MutatingWebhook;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1RuleWithOperations;
import io.kubernetes.client.openapi.models.V1ValidatingWebhook;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import io.kubernetes.client.util.PatchUtils;
import java.util.List;

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
        AdmissionregistrationV1Api api = new AdmissionregistrationV1Api(apiClient);
        V1ValidatingWebhookConfiguration validating = validating(webhooks, caBundle);
        V1MutatingWebhookConfiguration mutating = mutating(webhooks, caBundle);
        if (!validating.getWebhooks().isEmpty()) {
            String body = apiClient.getJSON().serialize(validating);
            PatchUtils.patch(V1ValidatingWebhookConfiguration.class,
                    () -> api.patchValidatingWebhookConfiguration(name, new V1Patch(body)).fieldManager(name)
                            .force(true).buildCall(null),
                    V1Patch.PATCH_FORMAT_APPLY_YAML, apiClient);
        }
        if (!mutating.getWebhooks().isEmpty()) {
            String body = apiClient.getJSON().serialize(mutating);
            PatchUtils.patch(V1MutatingWebhookConfiguration.class,
                    () -> api.patchMutatingWebhookConfiguration(name, new V1Patch(body)).fieldManager(name)
                            .force(true).buildCall(null),
                    V1Patch.PATCH_FORMAT_APPLY_YAML, apiClient);
        }
        return webhooks.stream().map(webhook -> webhook.kind() + " " + webhook.name()).toList();
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

