package dev.watchkeeper.internal.watch.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import dev.watchkeeper.internal.json.ModelGson;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodStatus;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The client's models written through {@link ModelGson#around} give the JSON the client's own Gson gives, so the
 * reconcilers' writes send what client-java would: on every model the client decodes from generated JSON
 * ({@link GeneratedJson}), and on times with fractions of a second, which the API server reads as microseconds at
 * most in its {@code MicroTime} fields.
 */
class ModelWritesDifferentialTest {

    private static final Gson CLIENT = ClientDecoding.CLIENT;
    private static final Gson OURS = ModelGson.around(CLIENT);

    @Test
    void everyModelTheClientReadsIsWrittenAsTheClientWritesIt() {
        Tries.run("model writes", random -> {
            GeneratedJson json = new GeneratedJson(random, true);
            boolean pod = random.nextBoolean();
            Class<? extends KubernetesObject> type = pod ? V1Pod.class : V1ConfigMap.class;
            String object = new String(json.mutate((pod ? json.pod() : json.configMap())
                    .getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
            KubernetesObject model;
            try {
                model = CLIENT.fromJson(object, type);
            } catch (RuntimeException refused) {
                return; // nothing the client reads, so nothing either would write
            }
            if (model != null) {
                assertThat(written(OURS, model)).as("written from %s", object).isEqualTo(written(CLIENT, model));
            }
        });
    }

    /** The JSON {@code gson} writes for {@code model}, or the class of what it throws (a Quantity it cannot say). */
    private static Object written(Gson gson, Object model) {
        try {
            return gson.toJsonTree(model);
        } catch (RuntimeException refused) {
            return refused.getClass();
        }
    }

    @Test
    void timesWithFractionsAreWrittenAsTheClientWritesThem() {
        OffsetDateTime renewed = OffsetDateTime.of(2026, 12, 4, 10, 20, 30, 123_456_789, ZoneOffset.UTC);
        V1Lease lease = new V1Lease().metadata(new V1ObjectMeta().name("leader").creationTimestamp(renewed))
                .spec(new V1LeaseSpec().holderIdentity("a").renewTime(renewed).acquireTime(renewed.withNano(0)));
        V1Pod pod = new V1Pod().metadata(new V1ObjectMeta().name("p")).status(new V1PodStatus().startTime(renewed)
                .conditions(List.of()));

        assertThat(OURS.toJsonTree(lease)).isEqualTo(CLIENT.toJsonTree(lease));
        assertThat(OURS.toJsonTree(pod)).isEqualTo(CLIENT.toJsonTree(pod));
        assertThat(OURS.toJsonTree(new V1Condition().type("Ready").lastTransitionTime(renewed)))
                .isEqualTo(CLIENT.toJsonTree(new V1Condition().type("Ready").lastTransitionTime(renewed)));
    }
}
