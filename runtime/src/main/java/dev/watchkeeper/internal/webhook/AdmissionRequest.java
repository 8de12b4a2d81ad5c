package dev.watchkeeper.internal.webhook;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import dev.watchkeeper.webhook.AdmissionContext;
import dev.watchkeeper.webhook.Operation;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code request} of an {@code admission.k8s.io/v1} AdmissionReview, as far as webhooks use it.
 *
 * @param context   what the method may be given of it
 * @param object    the object as sent; {@code null} on DELETE
 * @param oldObject the stored object on UPDATE and DELETE; {@code null} otherwise
 */
public record AdmissionRequest(AdmissionContext context, JsonObject object, JsonObject oldObject) {

    static final String API_VERSION = "admission.k8s.io/v1";

    /**
     * Reads an AdmissionReview.
     *
     * @throws IllegalArgumentException saying what is missing or wrong, when it is not an AdmissionReview v1
     *                                  with a request
     */
    public static AdmissionRequest parse(String json) {
        JsonObject review;
        try {
            JsonElement parsed = JsonParser.parseString(json);
            if (!parsed.isJsonObject()) {
                throw new IllegalArgumentException("the body is not a JSON object");
            }
            review = parsed.getAsJsonObject();
        } catch (JsonParseException e) {
            throw new IllegalArgumentException("the body is not JSON: " + e.getMessage());
        }
        String apiVersion = string(review, "apiVersion");
        if (!API_VERSION.equals(apiVersion) || !"AdmissionReview".equals(string(review, "kind"))) {
            throw new IllegalArgumentException("expected an AdmissionReview of " + API_VERSION + ", got kind '"
                    + string(review, "kind") + "' of '" + apiVersion + "'");
        }
        JsonObject request = object(review, "request");
        if (request == null || string(request, "uid").isEmpty()) {
            throw new IllegalArgumentException("the AdmissionReview has no request with a uid");
        }
        Operation operation;
        try {
            operation = Operation.valueOf(string(request, "operation"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown operation '" + string(request, "operation") + "'");
        }
        JsonObject user = object(request, "userInfo");
        List<String> groups = new ArrayList<>();
        JsonArray groupArray = user == null || !user.has("groups") || !user.get("groups").isJsonArray() ? null
                : user.getAsJsonArray("groups");
        if (groupArray != null) {
            groupArray.forEach(group -> groups.add(group.getAsString()));
        }
        boolean dryRun = request.has("dryRun") && request.get("dryRun").isJsonPrimitive()
                && request.get("dryRun").getAsBoolean();
        AdmissionContext context = new AdmissionContext(operation, dryRun,
                user == null ? "" : string(user, "username"), groups, string(request, "namespace"),
                string(request, "name"), string(request, "uid"));
        return new AdmissionRequest(context, object(request, "object"), object(request, "oldObject"));
    }

    private static String string(JsonObject object, String member) {
        JsonElement value = object.get(member);
        return value != null && value.isJsonPrimitive() ? value.getAsString() : "";
    }

    private static JsonObject object(JsonObject object, String member) {
        JsonElement value = object.get(member);
        return value != null && value.isJsonObject() ? value.getAsJsonObject() : null;
    }
}
