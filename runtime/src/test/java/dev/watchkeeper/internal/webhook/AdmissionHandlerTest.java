package dev.watchkeeper.internal.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.webhook.AdmissionContext;
import dev.watchkeeper.webhook.AdmissionVerdict;
import dev.watchkeeper.webhook.FailurePolicy;
import dev.watchkeeper.webhook.Operation;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AdmissionHandlerTest {

    static final Gson GSON = new JSON().getGson();
    static final String CONFIG_MAP = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"app\","
            + "\"namespace\":\"ns\",\"creationTimestamp\":\"2026-01-02T03:04:05Z\"},\"data\":{\"password\":\"x\"}}";

    final ExecutorService calls = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        calls.shutdownNow();
    }

    @Test
    void aVerdictIsTheAnswer_withItsMessageAndWarnings_forTheRequestsUid() throws Exception {
        AdmissionHandler handler = handler(WebhookKind.VALIDATING, FailurePolicy.FAIL, (object, old, context) ->
                AdmissionVerdict.deny("passwords belong in a Secret, not ConfigMap "
                        + ((V1ConfigMap) object).getMetadata().getName()).withWarning("look again"));

        JsonObject response = response(handler.handle(request("CREATE", CONFIG_MAP, null, false)));

        assertThat(response.get("uid").getAsString()).isEqualTo("uid-1");
        assertThat(response.get("allowed").getAsBoolean()).isFalse();
        assertThat(response.getAsJsonObject("status").get("message").getAsString())
                .isEqualTo("passwords belong in a Secret, not ConfigMap app");
        assertThat(response.getAsJsonObject("status").get("code").getAsInt()).isEqualTo(403);
        assertThat(response.getAsJsonArray("warnings").get(0).getAsString()).isEqualTo("look again");
    }

    @Test
    void theMethodIsGivenTheOldObjectAndTheContext() throws Exception {
        List<Object> seen = new ArrayList<>();
        AdmissionHandler handler = handler(WebhookKind.VALIDATING, FailurePolicy.FAIL, (object, old, context) -> {
            seen.add(((V1ConfigMap) old).getData());
            seen.add(context);
            return null;
        });

        JsonObject response = response(handler.handle(request("UPDATE", CONFIG_MAP,
                CONFIG_MAP.replace("\"x\"", "\"old\""), true)));

        assertThat(response.get("allowed").getAsBoolean()).isTrue();
        assertThat(seen.get(0)).isEqualTo(Map.of("password", "old"));
        assertThat(seen.get(1)).isEqualTo(new AdmissionContext(Operation.UPDATE, true, "alice",
                List.of("system:authenticated"), "ns", "app", "uid-1"));
    }

    @Test
    void anExceptionRefusesWithTheFirstLineOfItsMessage() throws Exception {
        AdmissionHandler handler = handler(WebhookKind.VALIDATING, FailurePolicy.IGNORE, (object, old, context) -> {
            throw new IllegalStateException("the quota is spent\n\tat some.Frame(Frame.java:1)");
        });

        JsonObject response = response(handler.handle(request("CREATE", CONFIG_MAP, null, false)));

        assertThat(response.get("allowed").getAsBoolean()).isFalse();
        assertThat(response.getAsJsonObject("status").get("message").getAsString()).isEqualTo("the quota is spent");
        assertThat(AdmissionHandler.oneLine(new NullPointerException())).isEqualTo("NullPointerException");
    }

    @Test
    void aMethodPastItsTimeIsInterruptedAndAnsweredAsTheFailurePolicySays() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(2);
        AdmissionMethod forever = (object, old, context) -> {
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return null;
        };

        JsonObject failed = response(handler(WebhookKind.VALIDATING, FailurePolicy.FAIL, forever)
                .handle(request("CREATE", CONFIG_MAP, null, false)));
        JsonObject ignored = response(handler(WebhookKind.MUTATING, FailurePolicy.IGNORE, forever)
                .handle(request("CREATE", CONFIG_MAP, null, false)));

        assertThat(failed.get("allowed").getAsBoolean()).isFalse();
        assertThat(failed.getAsJsonObject("status").get("message").getAsString())
                .isEqualTo("webhook check.example.com did not decide within 50 ms");
        assertThat(ignored.get("allowed").getAsBoolean()).isTrue();
        assertThat(ignored.has("patch")).isFalse();
        assertThat(ignored.getAsJsonArray("warnings").get(0).getAsString())
                .isEqualTo("webhook check.example.com did not decide within 50 ms");
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).as("both methods interrupted").isTrue();
    }

    @Test
    void aMutatingWebhookAnswersThePatchOfWhatItChanged_nothingForWhatTheModelWritesDifferently() throws Exception {
        // the received object's timestamp has no fraction; the model writes one, and no operation may follow from it
        AdmissionHandler changing = handler(WebhookKind.MUTATING, FailurePolicy.FAIL, (object, old, context) -> {
            ((V1ConfigMap) object).getMetadata().putLabelsItem("team", "blue");
            return null;
        });
        AdmissionHandler copying = handler(WebhookKind.MUTATING, FailurePolicy.FAIL, (object, old, context) ->
                new V1ConfigMap().apiVersion("v1").kind("ConfigMap").metadata(((V1ConfigMap) object).getMetadata())
                        .data(Map.of("password", "x", "added", "y")));

        assertThat(patch(changing.handle(request("CREATE", CONFIG_MAP, null, false))))
                .isEqualTo("[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"team\":\"blue\"}}]");
        assertThat(patch(copying.handle(request("CREATE", CONFIG_MAP, null, false))))
                .isEqualTo("[{\"op\":\"add\",\"path\":\"/data/added\",\"value\":\"y\"}]");
    }

    @Test
    void aMutatingWebhookThatChangesNothingSendsNoPatch() throws Exception {
        JsonObject response = response(handler(WebhookKind.MUTATING, FailurePolicy.FAIL, (object, old, context) -> null)
                .handle(request("CREATE", CONFIG_MAP, null, false)));

        assertThat(response.get("allowed").getAsBoolean()).isTrue();
        assertThat(response.has("patch")).isFalse();
    }

    @Test
    void anObjectFromANewerServerIsAdmitted_andFieldsTheModelDoesNotKnowAreNeverPatched() throws Exception {
        String newer = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"app\","
                + "\"namespace\":\"ns\",\"fieldOfANewerServer\":\"x\"},\"data\":{\"k\":\"v\"},"
                + "\"fieldOfANewerServer\":{\"n\":1}}";
        AdmissionHandler labelling = handler(WebhookKind.MUTATING, FailurePolicy.FAIL, (object, old, context) -> {
            ((V1ConfigMap) object).getMetadata().putLabelsItem("team", "blue");
            return null;
        });

        JsonObject response = response(labelling.handle(request("CREATE", newer, null, false)));

        assertThat(response.get("allowed").getAsBoolean()).as(response.toString()).isTrue();
        assertThat(patch(labelling.handle(request("CREATE", newer, null, false))))
                .isEqualTo("[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"team\":\"blue\"}}]");
    }

    @Test
    void anObjectThatDoesNotDecodeIsRefusedSayingSo() throws Exception {
        JsonObject response = response(handler(WebhookKind.VALIDATING, FailurePolicy.FAIL, (o, old, c) -> null)
                .handle(request("CREATE", "{\"metadata\":{\"name\":[1]}}", null, false)));

        assertThat(response.get("allowed").getAsBoolean()).isFalse();
        assertThat(response.getAsJsonObject("status").get("message").getAsString())
                .startsWith("cannot read the object as V1ConfigMap: ");
    }

    @Test
    void aBodyThatIsNoAdmissionReviewIsRefusedSayingWhy() {
        assertThatThrownBy(() -> AdmissionRequest.parse("[]")).hasMessage("the body is not a JSON object");
        assertThatThrownBy(() -> AdmissionRequest.parse("{\"apiVersion\":\"admission.k8s.io/v1beta1\","
                + "\"kind\":\"AdmissionReview\"}"))
                .hasMessage("expected an AdmissionReview of admission.k8s.io/v1, got kind 'AdmissionReview' of"
                        + " 'admission.k8s.io/v1beta1'");
        assertThatThrownBy(() -> AdmissionRequest.parse("{\"apiVersion\":\"admission.k8s.io/v1\","
                + "\"kind\":\"AdmissionReview\",\"request\":{}}"))
                .hasMessage("the AdmissionReview has no request with a uid");
    }

    private AdmissionHandler handler(WebhookKind kind, FailurePolicy policy, AdmissionMethod method) {
        WebhookDefinition definition = new WebhookDefinition("check.example.com", kind,
                ResourceType.of(V1ConfigMap.class), List.of(Operation.CREATE), policy, 10, Map.of());
        return new AdmissionHandler(definition, method, GSON, calls, Duration.ofMillis(50));
    }

    static AdmissionRequest request(String operation, String object, String oldObject, boolean dryRun) {
        return AdmissionRequest.parse("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
                + "\"request\":{\"uid\":\"uid-1\",\"operation\":\"" + operation + "\",\"namespace\":\"ns\","
                + "\"name\":\"app\",\"dryRun\":" + dryRun + ",\"userInfo\":{\"username\":\"alice\","
                + "\"groups\":[\"system:authenticated\"]},\"object\":" + object
                + (oldObject == null ? "" : ",\"oldObject\":" + oldObject) + "}}");
    }

    private static JsonObject response(AdmissionResponse response) {
        JsonObject review = JsonParser.parseString(response.toJson()).getAsJsonObject();
        assertThat(review.get("apiVersion").getAsString()).isEqualTo("admission.k8s.io/v1");
        assertThat(review.get("kind").getAsString()).isEqualTo("AdmissionReview");
        return review.getAsJsonObject("response");
    }

    private static String patch(AdmissionResponse answer) {
        JsonObject response = response(answer);
        assertThat(response.get("patchType").getAsString()).isEqualTo("JSONPatch");
        return new String(Base64.getDecoder().decode(response.get("patch").getAsString()), StandardCharsets.UTF_8);
    }
}
