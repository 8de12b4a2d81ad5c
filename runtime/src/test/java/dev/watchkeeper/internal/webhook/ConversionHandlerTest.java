package dev.watchkeeper.internal.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.JSON;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConversionHandlerTest {

    private final ExecutorService calls = Executors.newCachedThreadPool();
    private final ConversionHandler handler = handler(ConversionHandler.TIME_LIMIT);

    @AfterEach
    void stop() {
        GaugeV1.beforeToHub = () -> { };
        calls.shutdownNow();
    }

    @Test
    void everyObjectIsConvertedThroughTheHubInOrder_metadataAsReceivedWithTheConversionsLabels() {
        JsonObject v1 = object("test.watchkeeper.dev/v1", "a", "{\"range\":\"1-5\"}");
        JsonObject v2 = object("test.watchkeeper.dev/v2", "b", "{\"limits\":{\"low\":2,\"high\":3}}");

        JsonObject response = answer("test.watchkeeper.dev/v2", v1, v2);

        assertThat(response.getAsJsonObject("result").get("status").getAsString()).isEqualTo("Success");
        assertThat(response.get("uid").getAsString()).isEqualTo("review-1");
        JsonArray converted = response.getAsJsonArray("convertedObjects");
        assertThat(converted).hasSize(2);
        JsonObject first = converted.get(0).getAsJsonObject();
        assertThat(first.get("apiVersion").getAsString()).isEqualTo("test.watchkeeper.dev/v2");
        assertThat(first.get("kind").getAsString()).isEqualTo("Gauge");
        assertThat(first.get("spec")).isEqualTo(JsonParser.parseString("{\"limits\":{\"low\":1,\"high\":5}}"));
        JsonObject metadata = first.getAsJsonObject("metadata");
        // as received, to the character: the API server compares, and the model would write the time otherwise
        assertThat(metadata.get("creationTimestamp").getAsString()).isEqualTo("2026-12-04T06:00:00Z");
        assertThat(metadata.get("uid").getAsString()).isEqualTo("uid-a");
        assertThat(metadata.getAsJsonObject("labels")).isEqualTo(JsonParser.parseString(
                "{\"app\":\"x\",\"converted\":\"to-hub\"}"));
        assertThat(converted.get(1)).as("already in the desired version: as received").isEqualTo(v2);
    }

    @Test
    void fromTheHubToAnotherVersion() {
        JsonObject response = answer("test.watchkeeper.dev/v1",
                object("test.watchkeeper.dev/v2", "b", "{\"limits\":{\"low\":2,\"high\":3}}"));

        JsonObject converted = response.getAsJsonArray("convertedObjects").get(0).getAsJsonObject();
        assertThat(converted.get("apiVersion").getAsString()).isEqualTo("test.watchkeeper.dev/v1");
        assertThat(converted.get("spec")).isEqualTo(JsonParser.parseString("{\"range\":\"2-3\"}"));
    }

    @Test
    void aConversionThatThrowsFailsTheReviewNamingEachObjectWithTheFirstLineOfItsMessage() {
        JsonObject response = answer("test.watchkeeper.dev/v2",
                object("test.watchkeeper.dev/v1", "good", "{\"range\":\"1-2\"}"),
                object("test.watchkeeper.dev/v1", "bad", "{\"range\":\"oops\"}"),
                object("test.watchkeeper.dev/v1", "worse", "{\"range\":\"1-2-3\"}"));

        assertThat(response.getAsJsonObject("result").get("status").getAsString()).isEqualTo("Failed");
        assertThat(response.getAsJsonObject("result").get("message").getAsString()).isEqualTo(
                "converting Gauge default/bad from v1 to v2 failed: spec.range 'oops' is not low-high;"
                        + " converting Gauge default/worse from v1 to v2 failed: spec.range '1-2-3' is not low-high");
        assertThat(response.getAsJsonArray("convertedObjects")).as("nothing half converted").isEmpty();
    }

    @Test
    void aFieldTheClassDoesNotHoldFailsRatherThanBeingDropped() {
        JsonObject response = answer("test.watchkeeper.dev/v2",
                object("test.watchkeeper.dev/v1", "new", "{\"range\":\"1-2\",\"colour\":\"red\"}"));

        assertThat(response.getAsJsonObject("result").get("message").getAsString()).isEqualTo(
                "converting Gauge default/new from v1 to v2 would lose spec.colour: GaugeV1 has no such field;"
                        + " generate the CRD from the classes the application runs");
    }

    @Test
    void metadataFromANewerServerIsConverted_andKeptAsReceived() {
        JsonObject v1 = object("test.watchkeeper.dev/v1", "a", "{\"range\":\"1-5\"}");
        v1.getAsJsonObject("metadata").addProperty("fieldOfANewerServer", "x");

        JsonObject response = answer("test.watchkeeper.dev/v2", v1);

        assertThat(response.getAsJsonObject("result").get("status").getAsString()).as(response.toString())
                .isEqualTo("Success");
        JsonObject converted = response.getAsJsonArray("convertedObjects").get(0).getAsJsonObject();
        assertThat(converted.get("spec")).isEqualTo(JsonParser.parseString("{\"limits\":{\"low\":1,\"high\":5}}"));
        assertThat(converted.getAsJsonObject("metadata").get("fieldOfANewerServer").getAsString()).isEqualTo("x");
    }

    @Test
    void conversionsPastTheTimeLimitAreInterruptedAndTheReviewFailsSayingSo() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        GaugeV1.beforeToHub = () -> {
            try {
                new CountDownLatch(1).await(); // a conversion that never ends by itself
            } catch (InterruptedException e) {
                interrupted.countDown();
                Thread.currentThread().interrupt();
            }
        };

        JsonObject response = answer(handler(Duration.ofMillis(200)), "test.watchkeeper.dev/v2",
                object("test.watchkeeper.dev/v1", "a", "{\"range\":\"1-2\"}"),
                object("test.watchkeeper.dev/v1", "b", "{\"range\":\"3-4\"}"));

        assertThat(response.getAsJsonObject("result").get("status").getAsString()).isEqualTo("Failed");
        assertThat(response.getAsJsonObject("result").get("message").getAsString())
                .isEqualTo("converting 2 objects to test.watchkeeper.dev/v2 did not finish within 200 ms");
        assertThat(response.getAsJsonArray("convertedObjects")).isEmpty();
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).as("the conversion interrupted").isTrue();
    }

    @Test
    void aVersionOrKindWithoutAClassFailsNamingWhatTheApplicationHas() {
        assertThat(answer("test.watchkeeper.dev/v3", object("test.watchkeeper.dev/v1", "a", "{\"range\":\"1-2\"}"))
                .getAsJsonObject("result").get("message").getAsString()).isEqualTo("Gauge default/a: this"
                + " application has no version v3 of gauges.test.watchkeeper.dev (it has [v2, v1]): the CRD and the"
                + " application disagree");
        JsonObject dial = object("test.watchkeeper.dev/v1", "d", "{}");
        dial.addProperty("kind", "Dial");
        assertThat(answer("test.watchkeeper.dev/v2", dial).getAsJsonObject("result").get("message").getAsString())
                .isEqualTo("this application converts no Dial of test.watchkeeper.dev (it converts"
                        + " [test.watchkeeper.dev/Gauge]): its @StorageVersion class is not used by any reconciler or"
                        + " webhook");
    }

    @Test
    void aBodyThatIsNoConversionReviewIsRefusedSayingWhy() {
        assertThatThrownBy(() -> handler.handle("{\"apiVersion\":\"apiextensions.k8s.io/v1\","
                + "\"kind\":\"ConversionReview\",\"request\":{\"uid\":\"u\"}}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the ConversionReview has no request with a uid and a desiredAPIVersion");
        assertThatThrownBy(() -> handler.handle("[]")).hasMessage("the body is not a JSON object");
    }

    private ConversionHandler handler(Duration timeLimit) {
        return new ConversionHandler(List.of(ResourceVersions.of(Gauge.class).orElseThrow()), new JSON().getGson(),
                calls, timeLimit);
    }

    private JsonObject answer(String desiredApiVersion, JsonObject... objects) {
        return answer(handler, desiredApiVersion, objects);
    }

    private static JsonObject answer(ConversionHandler handler, String desiredApiVersion, JsonObject... objects) {
        JsonObject request = new JsonObject();
        request.addProperty("uid", "review-1");
        request.addProperty("desiredAPIVersion", desiredApiVersion);
        JsonArray array = new JsonArray();
        for (JsonObject object : objects) {
            array.add(object);
        }
        request.add("objects", array);
        JsonObject review = new JsonObject();
        review.addProperty("apiVersion", "apiextensions.k8s.io/v1");
        review.addProperty("kind", "ConversionReview");
        review.add("request", request);
        String body;
        try {
            body = handler.handle(review.toString());
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        JsonObject answered = JsonParser.parseString(body).getAsJsonObject();
        assertThat(answered.get("apiVersion").getAsString()).isEqualTo("apiextensions.k8s.io/v1");
        assertThat(answered.get("kind").getAsString()).isEqualTo("ConversionReview");
        return answered.getAsJsonObject("response");
    }

    private static JsonObject object(String apiVersion, String name, String spec) {
        return JsonParser.parseString("{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"Gauge\",\"metadata\":{"
                + "\"name\":\"" + name + "\",\"namespace\":\"default\",\"uid\":\"uid-" + name + "\","
                + "\"creationTimestamp\":\"2026-12-04T06:00:00Z\",\"labels\":{\"app\":\"x\"}},\"spec\":" + spec + "}")
                .getAsJsonObject();
    }
}
