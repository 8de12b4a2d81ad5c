package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The strategic merge patch subset: lists merge only where the patch marks them, as kubectl marks them. */
class StrategicMergePatchTest {

    private static final JsonObject DEPLOYMENT = json("""
            {"metadata":{"finalizers":["a","b"]},
             "spec":{"containers":[{"name":"x","image":"1","env":[{"name":"E"}]},{"name":"y","image":"1"}]}}""");

    @Test
    void aListMarkedWithSetElementOrderMergesByTheKeyItNames() {
        JsonObject patched = StrategicMergePatch.apply(DEPLOYMENT, json("""
                {"spec":{"$setElementOrder/containers":[{"name":"y"},{"name":"x"}],
                         "containers":[{"name":"x","image":"2"}]}}"""));

        assertThat(patched.getAsJsonObject("spec").get("containers")).isEqualTo(JsonParser.parseString("""
                [{"name":"y","image":"1"},{"name":"x","image":"2","env":[{"name":"E"}]}]"""));
    }

    @Test
    void deleteDirectivesRemoveElementsAndScalars() {
        JsonObject patched = StrategicMergePatch.apply(DEPLOYMENT, json("""
                {"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"$setElementOrder/finalizers":["b","c"],
                             "finalizers":["c"]},
                 "spec":{"containers":[{"name":"y","$patch":"delete"}]}}"""));

        assertThat(patched.getAsJsonObject("metadata").get("finalizers")).isEqualTo(JsonParser.parseString("[\"b\",\"c\"]"));
        assertThat(patched.getAsJsonObject("spec").getAsJsonArray("containers")).hasSize(1);
    }

    @Test
    void anUnmarkedListIsReplacedAndObjectDirectivesApply() {
        JsonObject patched = StrategicMergePatch.apply(DEPLOYMENT, json("""
                {"metadata":{"$patch":"delete"},"spec":{"containers":[{"name":"z"}]}}"""));

        assertThat(patched).isEqualTo(json("{\"spec\":{\"containers\":[{\"name\":\"z\"}]}}"));
    }

    private static JsonObject json(String text) {
        return JsonParser.parseString(text).getAsJsonObject();
    }
}
