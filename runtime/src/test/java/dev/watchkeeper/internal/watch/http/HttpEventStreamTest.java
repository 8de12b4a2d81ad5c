package dev.watchkeeper.internal.watch.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.Gson;
import com.google.gson.JsonParser;
import dev.watchkeeper.internal.json.ModelGson;
import dev.watchkeeper.internal.json.ObjectDecoder;
import dev.watchkeeper.internal.watch.WireEvent;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Pod;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

class HttpEventStreamTest {

    private static final Gson CLIENT = new JSON().getGson();

    private static final String CONFIG_MAP = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\","
            + "\"namespace\":\"default\",\"resourceVersion\":\"7\",\"creationTimestamp\":\"2026-01-01T10:00:00.123456Z\","
            + "\"labels\":{\"app\":\"x\"},\"managedFields\":[{\"manager\":\"kubectl\",\"operation\":\"Update\"}]},"
            + "\"data\":{\"k\":\"line 1\\nline \\\"2\\\"\"},\"binaryData\":{\"b\":\"AAEC\"}}";

    private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
            + "\"namespace\":\"default\",\"resourceVersion\":\"9\"},\"spec\":{\"containers\":[{\"name\":\"c\","
            + "\"image\":\"nginx\",\"resources\":{\"limits\":{\"cpu\":\"500m\",\"memory\":\"128Mi\"}},"
            + "\"livenessProbe\":{\"httpGet\":{\"path\":\"/\",\"port\":\"http\"}},"
            + "\"readinessProbe\":{\"tcpSocket\":{\"port\":8080}}}]},"
            + "\"status\":{\"phase\":\"Running\",\"startTime\":\"2026-01-01T10:00:00Z\"}}";

    private static final String DEPLOYMENT = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":"
            + "{\"name\":\"d\",\"resourceVersion\":\"3\",\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"X\","
            + "\"name\":\"o\",\"uid\":\"u\",\"controller\":true}]},\"spec\":{\"replicas\":2,\"selector\":"
            + "{\"matchLabels\":{\"app\":\"d\"}},\"strategy\":{\"rollingUpdate\":{\"maxSurge\":\"25%\","
            + "\"maxUnavailable\":1}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"d\"}},\"spec\":"
            + "{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}}";

    @Test
    void readsTheClientsModelsAsTheClientDoes() throws IOException {
        assertSameAsClient(V1ConfigMap.class, CONFIG_MAP);
        assertSameAsClient(V1Pod.class, POD);
        assertSameAsClient(V1Deployment.class, DEPLOYMENT);

        V1ConfigMap read = (V1ConfigMap) ((WireEvent.Change<?>) events(V1ConfigMap.class,
                line("ADDED", CONFIG_MAP)).get(0)).cached().object();
        assertThat(read.getBinaryData().get("b")).containsExactly(0, 1, 2);
        assertThat(read.getData().get("k")).isEqualTo("line 1\nline \"2\"");
        assertThat(read.getMetadata().getCreationTimestamp().getNano()).isEqualTo(123_456_000);
        assertThat(read.getMetadata().getManagedFields()).as("excluded, as the client excludes them").isNullOrEmpty();
    }

    @Test
    void objectsShareTheirShortStrings() throws IOException {
        String other = CONFIG_MAP.replace("\"name\":\"a\"", "\"name\":\"b\"");
        List<WireEvent<V1ConfigMap>> events = events(V1ConfigMap.class, line("ADDED", CONFIG_MAP),
                line("ADDED", other));
        V1ConfigMap a = ((WireEvent.Change<V1ConfigMap>) events.get(0)).cached().object();
        V1ConfigMap b = ((WireEvent.Change<V1ConfigMap>) events.get(1)).cached().object();

        assertThat(b.getMetadata().getName()).isEqualTo("b");
        assertThat(b.getMetadata().getNamespace()).isSameAs(a.getMetadata().getNamespace());
        assertThat(b.getMetadata().getLabels().get("app")).isSameAs(a.getMetadata().getLabels().get("app"));
        assertThat(b.getMetadata().getLabels().keySet().iterator().next())
                .isSameAs(a.getMetadata().getLabels().keySet().iterator().next());
        assertThat(b.getData().get("k")).isEqualTo(a.getData().get("k"));
    }

    @Test
    void skipsFieldsTheModelDoesNotKnowAsClientGoDoes() throws IOException {
        String newer = CONFIG_MAP.replace("\"data\":", "\"fieldFromANewerServer\":{\"x\":[1,2]},\"data\":");
        assertThatThrownBy(() -> CLIENT.fromJson(newer, V1ConfigMap.class))
                .as("the client's own adapter rejects it").hasMessageContaining("fieldFromANewerServer");

        List<WireEvent<V1ConfigMap>> events = events(V1ConfigMap.class, line("MODIFIED", newer),
                "{\"object\":" + newer + ",\"type\":\"DELETED\"}");

        assertThat(events).allSatisfy(event -> assertThat(event).isInstanceOf(WireEvent.Change.class));
        assertThat(events).extracting(event -> ((WireEvent.Change<V1ConfigMap>) event).type())
                .containsExactly(WireEvent.ChangeType.MODIFIED, WireEvent.ChangeType.DELETED);
        assertThat(events).extracting(event -> ((WireEvent.Change<V1ConfigMap>) event).resourceVersion())
                .containsExactly("7", "7");
    }

    @Test
    void everyOtherLineIsReadAsATreeAndExplained() throws IOException {
        String poison = CONFIG_MAP.replace("\"data\":{\"k\":\"line 1\\nline \\\"2\\\"\"}", "\"data\":5");
        List<WireEvent<V1ConfigMap>> events = events(V1ConfigMap.class,
                line("ADDED", poison),
                "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"ConfigMap\",\"metadata\":{\"resourceVersion\":\"12\"}}}",
                "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":410,\"reason\":\"Expired\","
                        + "\"message\":\"too old\"}}",
                line("ADDED", "{\"metadata\":{\"resourceVersion\":\"13\"}}"));

        assertThat(events).hasSize(4);
        // the poison object's metadata reads, so it is kept undecoded; decoding it on demand says what is wrong
        assertThat(events.get(0)).isInstanceOfSatisfying(WireEvent.Change.class, bad -> {
            assertThat(bad.cached().decoded()).isNull();
            assertThat(bad.cached().problem()).contains("does not decode", "default/a", "7");
            assertThat(bad.resourceVersion()).isEqualTo("7");
        });
        assertThat(events.get(1)).isEqualTo(new WireEvent.Bookmark<>("12", false));
        assertThat(events.get(2)).isEqualTo(new WireEvent.ErrorStatus<>(410, "Expired", "too old"));
        assertThat(events.get(3)).isInstanceOfSatisfying(WireEvent.Undecodable.class,
                bad -> assertThat(bad.description()).contains("without metadata.name"));
        assertThat(streamError()).hasMessageContaining("not JSON");
    }

    @Test
    void aLineLongerThanTheLimitBreaksTheStreamNamingTheLimit() throws IOException {
        String event = line("ADDED", CONFIG_MAP);
        DataSize limit = DataSize.ofBytes(event.length() + 1);
        try (HttpEventStream<V1ConfigMap> stream = stream(V1ConfigMap.class, limit,
                event + "\r\n" + event + "\n" + event + "  \n")) {
            assertThat(stream.next()).as("exactly at the limit, CRLF").isInstanceOf(WireEvent.Change.class);
            assertThat(stream.next()).as("under the limit").isInstanceOf(WireEvent.Change.class);
            assertThatThrownBy(stream::next).isInstanceOf(IOException.class).hasMessage("the server sent an event "
                    + "line longer than the limit of " + limit.toBytes() + "B (watchkeeper.watch.max-event-size)");
        }
        try (HttpEventStream<V1ConfigMap> stream = stream(V1ConfigMap.class, DataSize.ofKilobytes(1),
                "x".repeat(4096))) {
            assertThatThrownBy(stream::next).hasMessageContaining("longer than the limit of 1KB");
        }
    }

    @Test
    void aLastLineWithoutNewlineIsRead() throws IOException {
        try (HttpEventStream<V1ConfigMap> stream = stream(V1ConfigMap.class, DataSize.ofMegabytes(1),
                line("ADDED", CONFIG_MAP))) {
            assertThat(stream.next()).isInstanceOf(WireEvent.Change.class);
            assertThat(stream.next()).isNull();
        }
    }

    @Test
    void aRepeatedTypeOrObjectKeyCountsOnceWithItsLastValueAsTheApiServersJsonDoes() throws IOException {
        String newer = CONFIG_MAP.replace("\"resourceVersion\":\"7\"", "\"resourceVersion\":\"8\"");
        List<WireEvent<V1ConfigMap>> events = events(V1ConfigMap.class,
                "{\"type\":\"ADDED\",\"object\":" + CONFIG_MAP + ",\"type\":\"DELETED\"}",
                "{\"type\":\"ADDED\",\"object\":" + CONFIG_MAP + ",\"object\":" + newer + "}");

        assertThat(events).extracting(event -> ((WireEvent.Change<V1ConfigMap>) event).type())
                .containsExactly(WireEvent.ChangeType.DELETED, WireEvent.ChangeType.ADDED);
        assertThat(events).extracting(event -> ((WireEvent.Change<V1ConfigMap>) event).resourceVersion())
                .containsExactly("7", "8");
    }

    private IOException streamError() {
        try (HttpEventStream<V1ConfigMap> stream = stream(V1ConfigMap.class, line("ADDED", CONFIG_MAP) + " trailing")) {
            stream.next();
            return null;
        } catch (IOException e) {
            return e;
        }
    }

    private static <T extends io.kubernetes.client.common.KubernetesObject> void assertSameAsClient(Class<T> type,
            String json) throws IOException {
        WireEvent<T> event = events(type, line("ADDED", json)).get(0);
        assertThat(event).isInstanceOf(WireEvent.Change.class);
        T ours = ((WireEvent.Change<T>) event).cached().object();
        assertThat(CLIENT.toJson(ours)).isEqualTo(CLIENT.toJson(CLIENT.fromJson(json, type)));
        assertThat(JsonParser.parseString(CLIENT.toJson(ours)))
                .isEqualTo(JsonParser.parseString(CLIENT.toJson(new ObjectDecoder<>(CLIENT, type)
                        .decode(JsonParser.parseString(json)).object())));
    }

    private static String line(String type, String object) {
        return "{\"type\":\"" + type + "\",\"object\":" + object + "}";
    }

    private static <T extends io.kubernetes.client.common.KubernetesObject> List<WireEvent<T>> events(Class<T> type,
            String... lines) throws IOException {
        List<WireEvent<T>> events = new ArrayList<>();
        try (HttpEventStream<T> stream = stream(type, lines)) {
            for (WireEvent<T> event = stream.next(); event != null; event = stream.next()) {
                events.add(event);
            }
        }
        return events;
    }

    private static <T extends io.kubernetes.client.common.KubernetesObject> HttpEventStream<T> stream(Class<T> type,
            String... lines) {
        return stream(type, DataSize.ofMegabytes(16), String.join("\n", lines) + "\n");
    }

    private static <T extends io.kubernetes.client.common.KubernetesObject> HttpEventStream<T> stream(Class<T> type,
            DataSize maxLine, String body) {
        Response response = new Response.Builder()
                .request(new Request.Builder().url("http://localhost/api/v1/configmaps?watch=true").build())
                .protocol(Protocol.HTTP_1_1).code(200).message("OK")
                .body(ResponseBody.create(body.getBytes(StandardCharsets.UTF_8), MediaType.get("application/json")))
                .build();
        ObjectDecoder<T> decoder = new ObjectDecoder<>(CLIENT, type);
        return new HttpEventStream<>(response, decoder,
                new ObjectScanner<>(decoder, "v1/configmaps", true, ModelGson.strings()), Duration.ofSeconds(5),
                maxLine, null);
    }
}
