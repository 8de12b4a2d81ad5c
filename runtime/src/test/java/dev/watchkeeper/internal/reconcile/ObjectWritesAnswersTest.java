package dev.watchkeeper.internal.reconcile;

import static dev.watchkeeper.reconcile.TestObjects.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.watchkeeper.internal.api.FailedCall;
import dev.watchkeeper.internal.api.StubApiServer;
import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.internal.resource.ResourceType;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The answers to a reconciler's writes from an API server newer than the client, whose objects carry fields the
 * client's models do not know: they are read as the watchers' caches read objects, the unknown fields skipped (a
 * dynamic object keeps them), never an error after a write the server has made. An answer that is not the object
 * is an error that says so.
 */
@Timeout(10)
class ObjectWritesAnswersTest {

    /** A ConfigMap as a newer server might send it, with a field unknown to the model at the top and in metadata. */
    private static final String NEWER = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\","
            + "\"namespace\":\"default\",\"resourceVersion\":\"7\",\"uid\":\"u-a\",\"fieldOfANewerServer\":\"x\"},"
            + "\"data\":{\"k\":\"v\"},\"fieldOfANewerServer\":{\"n\":1}}";

    private volatile String answer = NEWER;
    private final StubApiServer server = new StubApiServer(request -> new StubApiServer.Answer(200, answer));

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void fieldsTheModelDoesNotKnowAreSkippedInTheAnswerOfEveryWrite() throws Exception {
        ObjectWrites writes = writes();

        V1ConfigMap applied = writes.apply(configMap("a", "6"));
        V1ConfigMap finalized = writes.addFinalizer(configMap("a", "6"), "test.watchkeeper.dev/cleanup");
        V1ConfigMap read = writes.read(configMap("a", "6"));

        for (V1ConfigMap answered : List.of(applied, finalized, read)) {
            assertThat(answered.getMetadata().getResourceVersion()).isEqualTo("7");
            assertThat(answered.getMetadata().getUid()).isEqualTo("u-a");
            assertThat(answered.getData()).containsEntry("k", "v");
        }
        assertThat(server.requests()).extracting(StubApiServer.Request::method, request -> request.uri()
                .replaceFirst("\\?.*", "")).containsExactly(
                        tuple("PATCH", "/api/v1/namespaces/default/configmaps/a"),
                        tuple("PATCH", "/api/v1/namespaces/default/configmaps/a"),
                        tuple("GET", "/api/v1/namespaces/default/configmaps/a"));
    }

    @Test
    void anAnswerThatIsNotTheObjectIsAnErrorThatSaysSo() {
        answer = "[\"not\", \"an\", \"object\"]";

        assertThatThrownBy(() -> writes().apply(configMap("a", "6")))
                .isInstanceOfSatisfying(FailedCall.class, failed -> assertThat(failed.verb()).isEqualTo("patch"))
                .hasMessageContaining("the API server's answer is not a V1ConfigMap: an object that is not a JSON "
                        + "object");
    }

    @Test
    void aDynamicObjectIsReadFromItsAnswerTheSameWayAndKeepsEveryField() throws Exception {
        ObjectWrites writes = writes(ResourceType.dynamic("", "v1", "configmaps", true));

        DynamicKubernetesObject applied = writes.apply(dynamicConfigMap());

        assertThat(applied.getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(applied.getRaw().getAsJsonObject("fieldOfANewerServer").get("n").getAsInt()).isEqualTo(1);
        answer = "[\"not\", \"an\", \"object\"]";
        assertThatThrownBy(() -> writes.apply(dynamicConfigMap()))
                .isInstanceOfSatisfying(FailedCall.class, failed -> assertThat(failed.verb()).isEqualTo("patch"))
                .hasMessageContaining("the API server's answer is not a DynamicKubernetesObject: an object that is "
                        + "not a JSON object");
    }

    private static DynamicKubernetesObject dynamicConfigMap() {
        DynamicKubernetesObject object = new DynamicKubernetesObject();
        object.setApiVersion("v1");
        object.setKind("ConfigMap");
        object.setMetadata(new V1ObjectMeta().name("a").namespace("default").resourceVersion("6"));
        return object;
    }

    private ObjectWrites writes() {
        return writes(ResourceType.of(V1ConfigMap.class));
    }

    private ObjectWrites writes(ResourceType<?> primary) {
        return new ObjectWrites(server.client(), "test", primary, new ManualTime(), new OwnWrites(), null,
                WriteBudget.none());
    }
}
