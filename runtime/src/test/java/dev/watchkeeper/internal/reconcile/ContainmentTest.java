package dev.watchkeeper.internal.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

/** A stored object holds a desired one when it has each desired field with the same value. */
class ContainmentTest {

    @Test
    void fieldsOnlyTheStoredCopyHasDoNotCount() {
        assertThat(holds("{\"spec\":{\"ports\":[{\"port\":80,\"protocol\":\"TCP\"}],\"clusterIP\":\"10.0.0.1\"}}",
                "{\"spec\":{\"ports\":[{\"port\":80}]}}")).isTrue();
    }

    @Test
    void aChangedMissingOrMistypedFieldDoes() {
        assertThat(holds("{\"data\":{\"k\":\"defaced\"}}", "{\"data\":{\"k\":\"v\"}}")).isFalse();
        assertThat(holds("{\"data\":{}}", "{\"data\":{\"k\":\"v\"}}")).isFalse();
        assertThat(holds("{\"data\":\"v\"}", "{\"data\":{\"k\":\"v\"}}")).isFalse();
        assertThat(holds("{\"spec\":{\"replicas\":2}}", "{\"spec\":{\"replicas\":1}}")).isFalse();
    }

    @Test
    void listsMatchElementByElementAndInLength() {
        assertThat(holds("{\"l\":[1,2]}", "{\"l\":[1,2]}")).isTrue();
        assertThat(holds("{\"l\":[1,2,3]}", "{\"l\":[1,2]}")).as("an element more").isFalse();
        assertThat(holds("{\"l\":[2,1]}", "{\"l\":[1,2]}")).as("another order").isFalse();
    }

    @Test
    void anEmptyListOrMapSetsNothing() {
        assertThat(holds("{\"spec\":{\"ports\":[{\"port\":80}]}}",
                "{\"spec\":{\"externalIPs\":[],\"selector\":{},\"ports\":[{\"port\":80}]}}")).isTrue();
    }

    @Test
    void numbersCompareByValue() {
        assertThat(holds("{\"n\":1}", "{\"n\":1.0}")).isTrue();
    }

    private static boolean holds(String stored, String desired) {
        JsonElement have = JsonParser.parseString(stored);
        return Containment.holds(have, JsonParser.parseString(desired));
    }
}
