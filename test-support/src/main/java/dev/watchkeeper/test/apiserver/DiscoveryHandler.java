package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;

import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Serves {@code /version}, health checks and legacy discovery ({@code /api}, {@code /api/v1}, {@code /apis},
 * {@code /apis/{group}[/{version}]}). Requests for aggregated discovery get the legacy document with
 * {@code Content-Type: application/json}, which makes kubectl fall back. OpenAPI is {@link OpenApiHandler}'s.
 */
final class DiscoveryHandler {

    private static final Set<String> HEALTH = Set.of("healthz", "livez", "readyz");

    private final ResourceRegistry registry;
    private final Predicate<ApiResource> visible;
    private final Supplier<String> serverAddress;

    DiscoveryHandler(ResourceRegistry registry, Predicate<ApiResource> visible, Supplier<String> serverAddress) {
        this.registry = registry;
        this.visible = visible;
        this.serverAddress = serverAddress;
    }

    void handle(HttpCall call) throws IOException {
        if (!call.method().equals("GET")) {
            throw Statuses.methodNotAllowed(call.method());
        }
        String[] segments = call.path().replaceAll("^/+|/+$", "").split("/");
        String first = segments[0];
        if (segments.length == 1 && HEALTH.contains(first)) {
            call.respondText(200, "ok");
            return;
        }
        Optional<JsonObject> body = switch (first) {
            case "version" -> segments.length == 1 ? Optional.of(version()) : Optional.empty();
            case "api" -> switch (segments.length) {
                case 1 -> Optional.of(registry.coreVersions(serverAddress.get()));
                case 2 -> registry.resourceList("", segments[1], visible);
                default -> Optional.empty();
            };
            case "apis" -> switch (segments.length) {
                case 1 -> Optional.of(registry.groupList(visible));
                case 2 -> registry.group(segments[1], visible);
                case 3 -> registry.resourceList(segments[1], segments[2], visible);
                default -> Optional.empty();
            };
            default -> Optional.empty();
        };
        call.respond(200, body.orElseThrow(Statuses::resourceNotFound));
    }

    private static JsonObject version() {
        JsonObject version = new JsonObject();
        version.addProperty("major", "1");
        version.addProperty("minor", "32");
        version.addProperty("gitVersion", "v1.32.0-watchkeeper");
        version.addProperty("gitCommit", "0000000000000000000000000000000000000000");
        version.addProperty("gitTreeState", "clean");
        version.addProperty("buildDate", "2026-01-01T00:00:00Z");
        version.addProperty("goVersion", "go1.23.0");
        version.addProperty("compiler", "gc");
        version.addProperty("platform", "linux/amd64");
        return version;
    }
}
