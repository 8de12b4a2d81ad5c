package dev.watchkeeper.internal.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An application's own type (a custom resource) is read with the client's Gson, so whatever the application
 * registered on it applies, while the client's models it holds are read as the watchers read models: a field of
 * {@code metadata} or of a condition that the client's model does not know, from an API server newer than the
 * client, is skipped, and the object is not a poison object.
 */
class CustomResourceDecodingTest {

    /** A custom resource whose metadata and condition carry a field the client's models do not know. */
    private static final String NEWER = "{\"apiVersion\":\"example.dev/v1\",\"kind\":\"Gadget\",\"metadata\":{"
            + "\"name\":\"g\",\"namespace\":\"default\",\"resourceVersion\":\"7\",\"generation\":3,"
            + "\"creationTimestamp\":\"2026-03-01T10:00:00Z\",\"fieldOfANewerServer\":\"x\","
            + "\"managedFields\":[{\"manager\":\"kubectl\",\"operation\":\"Apply\"}]},"
            + "\"spec\":\"three\",\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\","
            + "\"reason\":\"Done\",\"message\":\"m\",\"lastTransitionTime\":\"2026-03-01T10:05:00Z\","
            + "\"fieldOfANewerServer\":1}]}}";

    /** A custom resource whose spec is a type the application reads with an adapter of its own. */
    record Gadget(String apiVersion, String kind, V1ObjectMeta metadata, Spec spec, Status status)
            implements KubernetesObject {

        record Spec(int count) {
        }

        record Status(List<V1Condition> conditions) {
        }

        @Override
        public V1ObjectMeta getMetadata() {
            return metadata;
        }

        @Override
        public String getApiVersion() {
            return apiVersion;
        }

        @Override
        public String getKind() {
            return kind;
        }
    }

    /** The application's adapter on the client's Gson: a spec written as a word. */
    private static final class SpecAsWord extends TypeAdapter<Gadget.Spec> {

        private static final List<String> WORDS = List.of("zero", "one", "two", "three");

        @Override
        public void write(JsonWriter out, Gadget.Spec spec) throws IOException {
            out.value(WORDS.get(spec.count()));
        }

        @Override
        public Gadget.Spec read(JsonReader in) throws IOException {
            return new Gadget.Spec(WORDS.indexOf(in.nextString()));
        }
    }

    private final Gson client = new JSON().getGson().newBuilder()
            .registerTypeAdapter(Gadget.Spec.class, new SpecAsWord()).create();

    @Test
    void theModelsInACustomResourceSkipFieldsTheyDoNotKnowAndItsOwnTypesUseTheApplicationsAdapters() {
        ObjectDecoder<Gadget> decoder = new ObjectDecoder<>(client, Gadget.class);

        Gadget gadget = decoder.decode(NEWER.getBytes(StandardCharsets.UTF_8));

        assertThat(gadget).as(() -> decoder.problem(NEWER.getBytes(StandardCharsets.UTF_8), null)).isNotNull();
        assertThat(gadget.metadata().getResourceVersion()).isEqualTo("7");
        assertThat(gadget.metadata().getGeneration()).isEqualTo(3L);
        assertThat(gadget.metadata().getCreationTimestamp()).hasToString("2026-03-01T10:00Z");
        assertThat(gadget.spec()).isEqualTo(new Gadget.Spec(3));
        V1Condition ready = gadget.status().conditions().get(0);
        assertThat(ready.getType()).isEqualTo("Ready");
        assertThat(ready.getStatus()).isEqualTo("True");
        assertThat(ready.getLastTransitionTime()).hasToString("2026-03-01T10:05Z");
    }
}
