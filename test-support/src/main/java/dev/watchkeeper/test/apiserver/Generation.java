package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;

import java.util.Map;

/**
 * When {@code metadata.generation} exists and when it grows, as on the real server: custom resources always have
 * one, bumped by any change outside {@code metadata} (and outside {@code status} when it is a subresource);
 * of the built-ins only those with a desired state have one, bumped when it changes ({@code spec}, or
 * {@code template} for PodTemplates). Marking an object for deletion bumps it too.
 */
final class Generation {

    private static final Map<String, String> BUILT_IN_SPEC = Map.of(
            "pods", "spec",
            "podtemplates", "template",
            "deployments.apps", "spec",
            ResourceRegistry.CRD_PLURAL + "." + ResourceRegistry.CRD_GROUP, "spec");

    private final ResourceRegistry registry;

    Generation(ResourceRegistry registry) {
        this.registry = registry;
    }

    /** Whether objects of {@code resource} carry a generation. */
    boolean tracked(ApiResource resource) {
        return !registry.isBuiltIn(resource) || BUILT_IN_SPEC.containsKey(resource.groupResource());
    }

    /** The generation {@code after} gets when it replaces {@code before}; {@code null} when not tracked. */
    Long next(ApiResource resource, JsonObject before, JsonObject after) {
        if (!tracked(resource)) {
            return null;
        }
        JsonObject metadata = Json.object(before, "metadata");
        long generation = metadata.has("generation") ? metadata.get("generation").getAsLong() : 1;
        return desiredState(resource, before).equals(desiredState(resource, after)) ? generation : generation + 1;
    }

    private JsonObject desiredState(ApiResource resource, JsonObject object) {
        JsonObject state = new JsonObject();
        if (registry.isBuiltIn(resource)) {
            String field = BUILT_IN_SPEC.get(resource.groupResource());
            if (object.has(field)) {
                state.add(field, object.get(field));
            }
            return state;
        }
        object.entrySet().stream()
                .filter(e -> !e.getKey().equals("metadata") && !(resource.hasStatus() && e.getKey().equals("status")))
                .filter(e -> !e.getKey().equals("apiVersion") && !e.getKey().equals("kind"))
                .forEach(e -> state.add(e.getKey(), e.getValue()));
        return state;
    }
}
