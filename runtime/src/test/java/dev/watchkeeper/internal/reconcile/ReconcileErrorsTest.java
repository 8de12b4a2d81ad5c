package dev.watchkeeper.internal.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReconcileErrorsTest {

    private static final String CONFLICT = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
            + "\"message\":\"Operation cannot be fulfilled on configmaps \\\"a\\\": the object has been modified\","
            + "\"reason\":\"Conflict\",\"code\":409}";

    @Test
    void aFailedCallReadsAsTheServerAnsweredWithoutClientJavasHeaderDump() {
        ApiException conflict = new ApiException(409, Map.of("Audit-Id", List.of("1234"),
                "Authorization", List.of("Bearer secret-token")), CONFLICT);

        assertThat(ReconcileErrors.describe(conflict))
                .isEqualTo("HTTP 409 Conflict: Operation cannot be fulfilled on configmaps \"a\": the object has been"
                        + " modified")
                .doesNotContain("Audit-Id", "secret-token");
        assertThat(ReconcileErrors.describe(new IllegalStateException("while applying", conflict)))
                .as("found as a cause too").startsWith("HTTP 409 Conflict: ");
        assertThat(ReconcileErrors.describe(new ApiException(500, Map.of(), "not json")))
                .isEqualTo("HTTP 500");
    }

    @Test
    void noAnswerSaysSoAndOtherFailuresAreTheirTypeAndMessage() {
        assertThat(ReconcileErrors.describe(new ApiException(new ConnectException("Connection refused"))))
                .isEqualTo("no answer from the API server: ConnectException: Connection refused");
        assertThat(ReconcileErrors.describe(new IllegalArgumentException("spec.size must be positive")))
                .isEqualTo("java.lang.IllegalArgumentException: spec.size must be positive");
        assertThat(ReconcileErrors.describe(new UncheckedIOException(null, new java.io.IOException())))
                .isEqualTo("java.io.UncheckedIOException");
    }

    @Test
    void aFailedWriteSaysTheVerbTheResourceAndTheObjectAndA403WhatToGrant() {
        String forbidden = "{\"kind\":\"Status\",\"status\":\"Failure\",\"message\":\"configmaps \\\"a\\\" is"
                + " forbidden: User \\\"bob\\\" cannot update resource \\\"configmaps/status\\\"\",\"reason\":\"Forbidden\","
                + "\"code\":403}";
        FailedCall call = FailedCall.of("update", "configmaps", "status", "ns/a",
                new ApiException(403, Map.of(), forbidden));

        assertThat(ReconcileErrors.describe(call)).isEqualTo("update configmaps/ns/a/status: HTTP 403 Forbidden:"
                + " configmaps \"a\" is forbidden: User \"bob\" cannot update resource \"configmaps/status\""
                + " — grant update on configmaps/status");
        assertThat(call.getCode()).as("still the server's answer").isEqualTo(403);
        assertThat(ReconcileErrors.describe(FailedCall.of("patch", "widgets.example.com", null, "w",
                new ApiException(409, Map.of(), CONFLICT)))).startsWith("patch widgets.example.com/w: HTTP 409 Conflict: ")
                .doesNotContain("grant");
    }

    @Test
    void aLongMessageIsCutButTheGrantStays() {
        String body = "{\"message\":\"" + "x".repeat(2_000) + "\",\"reason\":\"Forbidden\"}";
        String line = ReconcileErrors.describe(FailedCall.of("patch", "configmaps", null, "ns/a",
                new ApiException(403, Map.of(), body)));

        assertThat(line).hasSizeLessThanOrEqualTo(ReconcileErrors.LIMIT)
                .startsWith("patch configmaps/ns/a: HTTP 403 Forbidden: xxx").endsWith(" — grant patch on configmaps");
        assertThat(ReconcileErrors.describe(new IllegalStateException("y".repeat(2_000))))
                .hasSize(ReconcileErrors.LIMIT).endsWith("…");
    }
}
