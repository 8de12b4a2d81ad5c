package dev.watchkeeper.internal.webhook;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code request} of an {@code apiextensions.k8s.io/v1} ConversionReview, and its answers.
 *
 * @param uid               the request's uid, which the answer repeats
 * @param desiredApiVersion {@code group/version} every object is to be converted to
 * @param objects           the objects, in the order their conversions must be answered
 */
public record ConversionReview(String uid, String desiredApiVersion, List<JsonObject> objects) {

    static final String API_VERSION = "apiextensions.k8s.io/v1";

    public ConversionReview {
        objects = List.copyOf(objects);
    }

    /**
     * Reads a ConversionReview.
     *
     * @throws IllegalArgumentException saying what is missing or wrong, when it is not a ConversionReview v1 with a
     *                                  request
     */
    public static ConversionReview parse(String json) {
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
        if (!API_VERSION.equals(string(review, "apiVersion")) || !"ConversionReview".equals(string(review, "kind"))) {
            throw new IllegalArgumentException("expected a ConversionReview of " + API_VERSION + ", got kind '"
                    + string(review, "kind") + "' of '" + string(review, "apiVersion") + "'");
        }
        JsonElement request = review.get("request");
        if (request == null || !request.isJsonObject() || string(request.getAsJsonObject(), "uid").isEmpty()
                || string(request.getAsJsonObject(), "desiredAPIVersion").isEmpty()) {
            throw new IllegalArgumentException("the ConversionReview has no request with a uid and a"
                    + " desiredAPIVersion");
        }
        JsonObject body = request.getAsJsonObject();
        List<JsonObject> objects = new ArrayList<>();
        JsonElement array = body.get("objects");
        if (array != null && array.isJsonArray()) {
            for (JsonElement object : array.getAsJsonArray()) {
                if (!object.isJsonObject()) {
                    throw new IllegalArgumentException("request.objects holds a " + object + ", not an object");
                }
                objects.add(object.getAsJsonObject());
            }
        }
        return new ConversionReview(string(body, "uid"), string(body, "desiredAPIVersion"), objects);
    }

    /** The review answering every object converted, in order. */
    public String succeeded(List<JsonObject> converted) {
        JsonArray array = new JsonArray();
        converted.forEach(array::add);
        return answer(array, "Success", null);
    }

    /** The review answering that the conversion failed, and why: the API server fails the request with it. */
    public String failed(String message) {
        return answer(new JsonArray(), "Failed", message);
    }

    private String answer(JsonArray converted, String status, String message) {
        JsonObject result = new JsonObject();
        result.addProperty("status", status);
        if (message != null) {
            result.addProperty("message", message);
        }
        JsonObject response = new JsonObject();
        response.addProperty("uid", uid);
        response.add("convertedObjects", converted);
        response.add("result", result);
        JsonObject review = new JsonObject();
        review.addProperty("apiVersion", API_VERSION);
        review.addProperty("kind", "ConversionReview");
        review.add("response", response);
        return review.toString();
    }

    static String string(JsonObject object, String member) {
        JsonElement value = object.get(member);
        return value != null && value.isJsonPrimitive() ? value.getAsString() : "";
    }
}
