package dev.watchkeeper.internal.webhook;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The {@code response} of an AdmissionReview: admitted (with a JSON patch for a mutating webhook) or refused with
 * a message, and warnings either way.
 *
 * @param uid      the request's uid, which the API server matches
 * @param allowed  admitted or not
 * @param message  why it is refused; {@code null} when admitted
 * @param warnings shown to the client
 * @param patch    RFC 6902 operations; {@code null} or empty for none
 */
public record AdmissionResponse(String uid, boolean allowed, String message, List<String> warnings, JsonArray patch) {

    /** The status code of a refusal, as controller-runtime sends it: the client reports it as Forbidden. */
    static final int DENIED = 403;

    public AdmissionResponse {
        warnings = List.copyOf(warnings);
    }

    /** The whole AdmissionReview to send back. */
    public String toJson() {
        JsonObject response = new JsonObject();
        response.addProperty("uid", uid);
        response.addProperty("allowed", allowed);
        if (!allowed) {
            JsonObject status = new JsonObject();
            status.addProperty("code", DENIED);
            status.addProperty("message", message);
            response.add("status", status);
        }
        if (!warnings.isEmpty()) {
            JsonArray array = new JsonArray();
            warnings.forEach(array::add);
            response.add("warnings", array);
        }
        if (patch != null && !patch.isEmpty()) {
            response.addProperty("patchType", "JSONPatch");
            response.addProperty("patch", Base64.getEncoder().encodeToString(
                    patch.toString().getBytes(StandardCharsets.UTF_8)));
        }
        JsonObject review = new JsonObject();
        review.addProperty("apiVersion", AdmissionRequest.API_VERSION);
        review.addProperty("kind", "AdmissionReview");
        review.add("response", response);
        return review.toString();
    }
}
