package dev.watchkeeper.test.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.watchkeeper.internal.store.LabelSelector;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SelectorsAndPatchesTest {

    private static JsonObject json(String text) {
        return JsonParser.parseString(text).getAsJsonObject();
    }

    @Test
    void labelSelectorTerms() {
        Map<String, String> labels = Map.of("app", "web", "tier", "front");
        assertThat(LabelSelector.parse("").matches(labels)).isTrue();
        assertThat(LabelSelector.parse("app=web,tier in (front,back)").matches(labels)).isTrue();
        assertThat(LabelSelector.parse("app=web,tier notin (front)").matches(labels)).isFalse();
        assertThat(LabelSelector.parse("missing notin (x),!missing,app!=db").matches(labels)).isTrue();
        assertThat(LabelSelector.parse("missing in (x)").matches(labels)).isFalse();
        assertThatThrownBy(() -> LabelSelector.parse("a=b=c")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot parse 'a=b=c'");
    }

    @Test
    void fieldSelectorReadsDottedPaths() {
        JsonObject pod = json("{\"metadata\":{\"name\":\"p\",\"namespace\":\"n\"},\"status\":{\"phase\":\"Running\"}}");
        assertThat(FieldSelector.parse("metadata.name=p,status.phase==Running").matches(pod)).isTrue();
        assertThat(FieldSelector.parse("metadata.namespace!=n").matches(pod)).isFalse();
        assertThat(FieldSelector.parse("spec.nodeName=").matches(pod)).isTrue();
    }

    @Test
    void mergePatchFollowsRfc7386() {
        JsonObject target = json("{\"a\":\"b\",\"c\":{\"d\":\"e\",\"f\":\"g\"},\"l\":[1,2]}");
        JsonObject patch = json("{\"a\":\"z\",\"c\":{\"f\":null},\"l\":[3],\"$retainKeys\":[]}");
        assertThat(MergePatch.apply(target, patch, true))
                .isEqualTo(json("{\"a\":\"z\",\"c\":{\"d\":\"e\"},\"l\":[3]}"));
        assertThat(MergePatch.apply(target, patch, false).getAsJsonObject().has("$retainKeys")).isTrue();
    }

    @Test
    void jsonPatchFollowsRfc6902() {
        JsonObject target = json("{\"a\":{\"b\":[1,2]},\"x/y\":1}");
        JsonObject patched = JsonPatch.apply(target, JsonParser.parseString("""
                [{"op":"add","path":"/a/b/1","value":9},
                 {"op":"add","path":"/a/b/-","value":3},
                 {"op":"move","from":"/x~1y","path":"/moved"},
                 {"op":"copy","from":"/moved","path":"/copied"},
                 {"op":"test","path":"/a/b","value":[1,9,2,3]}]"""));
        assertThat(patched).isEqualTo(json("{\"a\":{\"b\":[1,9,2,3]},\"moved\":1,\"copied\":1}"));
        assertThat(target).as("the target is not modified").isEqualTo(json("{\"a\":{\"b\":[1,2]},\"x/y\":1}"));
        assertThatThrownBy(() -> JsonPatch.apply(target, JsonParser.parseString(
                "[{\"op\":\"remove\",\"path\":\"/nope\"}]"))).isInstanceOfSatisfying(StatusException.class,
                e -> assertThat(e.code()).isEqualTo(422));
    }

    @Test
    void continueTokensRoundTripAndRejectGarbage() {
        ContinueToken token = new ContinueToken(1234, new StoredKey("ns", "name"));
        assertThat(ContinueToken.decode(token.encode())).isEqualTo(token);
        assertThatThrownBy(() -> ContinueToken.decode("not-a-token!")).isInstanceOfSatisfying(StatusException.class,
                e -> assertThat(e.code()).isEqualTo(400));
    }
}
