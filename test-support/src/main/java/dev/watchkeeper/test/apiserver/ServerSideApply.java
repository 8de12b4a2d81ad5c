package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

import java.io.IOException;

/**
 * A PATCH with {@code Content-Type: application/apply-patch+yaml}: the body (YAML or JSON) is a configuration
 * that {@link FieldManager#apply} merges into the object, creating it when absent (201).
 *
 * <pre>{@code
 * PATCH /api/v1/namespaces/default/configmaps/x?fieldManager=alice&force=true
 * Content-Type: application/apply-patch+yaml
 *
 * {apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1"}}
 * }</pre>
 */
final class ServerSideApply {

    static final String CONTENT_TYPE = "application/apply-patch+yaml";

    private ServerSideApply() {
    }

    static boolean isApply(HttpCall call) {
        return call.contentType().startsWith(CONTENT_TYPE);
    }

    static void handle(HttpCall call, ApiOperations operations, ApiResource resource, ResourcePath path)
            throws IOException {
        if (call.param("fieldManager") == null) {
            throw Statuses.fieldManagerRequired();
        }
        boolean force = call.flag("force");
        JsonObject config = parse(call.body());
        ApiOperations.Applied applied = operations.apply(resource, path.namespace(), path.name(), config,
                Writers.of(call, path.subresource() != null), force);
        call.respond(applied.created() ? 201 : 200, Presenter.atVersion(resource, applied.object()));
    }

    /** The configuration: YAML, of which JSON is a subset. */
    private static JsonObject parse(String body) {
        Object yaml;
        try {
            yaml = new Yaml(new SafeConstructor(new LoaderOptions())).load(body);
        } catch (YAMLException e) {
            throw Statuses.badRequest("error encoding patch: " + e.getMessage());
        }
        JsonElement json = Json.GSON.toJsonTree(yaml);
        if (!json.isJsonObject()) {
            throw Statuses.badRequest("error decoding patch: the configuration must be an object");
        }
        return json.getAsJsonObject();
    }
}
