package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** The opaque {@code continue} of a paged list: the list's resourceVersion and the last key returned. */
record ContinueToken(long resourceVersion, StoredKey lastKey) {

    String encode() {
        JsonObject json = new JsonObject();
        json.addProperty("rv", resourceVersion);
        json.addProperty("ns", lastKey.namespace());
        json.addProperty("name", lastKey.name());
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString(Json.GSON.toJson(json).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Reads a token.
     *
     * @throws StatusException 400 when it is not one of ours
     */
    static ContinueToken decode(String token) {
        JsonObject json;
        try {
            json = Json.parseObject(new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | StatusException e) {
            throw Statuses.badRequest("invalid continue token: " + e.getMessage());
        }
        String namespace = Json.string(json, "ns");
        String name = Json.string(json, "name");
        if (!json.has("rv") || !json.get("rv").isJsonPrimitive() || namespace == null || name == null) {
            throw Statuses.badRequest("invalid continue token: " + token);
        }
        try {
            return new ContinueToken(json.get("rv").getAsLong(), new StoredKey(namespace, name));
        } catch (NumberFormatException e) {
            throw Statuses.badRequest("invalid continue token: " + token);
        }
    }
}
