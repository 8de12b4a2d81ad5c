package dev.watchkeeper.internal.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

class JsonPatchTest {

    @Test
    void equalDocumentsNeedNoOperation() {
        assertThat(diff("{\"a\":{\"b\":[1,2]}}", "{\"a\":{\"b\":[1,2]}}")).isEqualTo("[]");
    }

    @Test
    void membersAreAddedRemovedAndReplacedWhereTheyDiffer() {
        assertThat(diff("{\"metadata\":{\"name\":\"x\",\"labels\":{\"a\":\"1\",\"b\":\"2\"}},\"data\":{\"k\":\"v\"}}",
                "{\"metadata\":{\"name\":\"x\",\"labels\":{\"a\":\"3\",\"c\":\"4\"}},"
                        + "\"data\":{\"k\":\"v\"},\"x\":true}"))
                .isEqualTo("[{\"op\":\"remove\",\"path\":\"/metadata/labels/b\"},"
                        + "{\"op\":\"replace\",\"path\":\"/metadata/labels/a\",\"value\":\"3\"},"
                        + "{\"op\":\"add\",\"path\":\"/metadata/labels/c\",\"value\":\"4\"},"
                        + "{\"op\":\"add\",\"path\":\"/x\",\"value\":true}]");
    }

    @Test
    void aMissingObjectIsAddedWhole() {
        assertThat(diff("{\"metadata\":{\"name\":\"x\"}}", "{\"metadata\":{\"name\":\"x\",\"labels\":{\"a\":\"1\"}}}"))
                .isEqualTo("[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"a\":\"1\"}}]");
    }

    @Test
    void arraysOfTheSameLengthAreComparedByElement_othersReplacedWhole() {
        assertThat(diff("{\"c\":[{\"i\":\"a\"},{\"i\":\"b\"}]}", "{\"c\":[{\"i\":\"a\"},{\"i\":\"z\"}]}"))
                .isEqualTo("[{\"op\":\"replace\",\"path\":\"/c/1/i\",\"value\":\"z\"}]");
        assertThat(diff("{\"c\":[1]}", "{\"c\":[1,2]}"))
                .isEqualTo("[{\"op\":\"replace\",\"path\":\"/c\",\"value\":[1,2]}]");
    }

    @Test
    void slashesAndTildesInNamesAreEscaped() {
        assertThat(diff("{\"labels\":{}}", "{\"labels\":{\"app.kubernetes.io/name~x\":\"w\"}}"))
                .isEqualTo("[{\"op\":\"add\",\"path\":\"/labels/app.kubernetes.io~1name~0x\",\"value\":\"w\"}]");
    }

    @Test
    void aValueOfAnotherTypeIsReplaced() {
        assertThat(diff("{\"a\":\"1\"}", "{\"a\":{\"b\":1}}"))
                .isEqualTo("[{\"op\":\"replace\",\"path\":\"/a\",\"value\":{\"b\":1}}]");
    }

    @Test
    void rebaseAppliesWhatChangedToTheReceivedDocument_keepingWhatTheModelDoesNotKnowOrWritesDifferently() {
        JsonElement received = JsonParser.parseString("{\"t\":\"03:04:05Z\",\"unknown\":1,\"a\":\"1\",\"b\":2}");
        JsonElement baseline = JsonParser.parseString("{\"t\":\"03:04:05.000Z\",\"a\":\"1\",\"b\":2,\"m\":{}}");
        JsonElement changed = JsonParser.parseString("{\"t\":\"03:04:05.000Z\",\"a\":\"9\",\"m\":{},\"n\":3}");

        assertThat(JsonPatch.rebase(received, baseline, changed).toString())
                .isEqualTo("{\"t\":\"03:04:05Z\",\"unknown\":1,\"a\":\"9\",\"n\":3}");
    }

    private static String diff(String from, String to) {
        JsonElement source = JsonParser.parseString(from);
        String before = source.toString();
        String patch = JsonPatch.diff(source, JsonParser.parseString(to)).toString();
        assertThat(source.toString()).as("the source is left as it was").isEqualTo(before);
        return patch;
    }
}
