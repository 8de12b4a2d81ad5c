package dev.watchkeeper.internal.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApiErrorsTest {

    private static final String CONFLICT = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
            + "\"message\":\"Operation cannot be fulfilled on configmaps \\\"a\\\": the object has been modified\","
            + "\"reason\":\"Conflict\",\"code\":409}";

    @Test
    void aFailedCallReadsAsTheServerAnsweredWithoutClientJavasHeaderDump() {
        ApiException conflict = new ApiException(409, Map.of("Audit-Id", List.of("1234"),
                "Authorization", List.of("Bearer secret-token")), CONFLICT);

        assertThat(ApiErrors.describe(conflict))
                .isEqualTo("HTTP 409 Conflict: Operation cannot be fulfilled on configmaps \"a\": the object has been"
                        + " modified")
                .doesNotContain("Audit-Id", "secret-token");
        assertThat(ApiErrors.describe(new IllegalStateException("while applying", conflict)))
                .as("found as a cause too").startsWith("HTTP 409 Conflict: ");
        assertThat(ApiErrors.describe(new ApiException(500, Map.of(), "not json")))
                .isEqualTo("HTTP 500");
    }

    @Test
    void noAnswerSaysSoAndOtherFailuresAreTheirTypeAndMessage() {
        assertThat(ApiErrors.describe(new ApiException(new ConnectException("Connection refused"))))
                .isEqualTo("no answer from the API server: ConnectException: Connection refused");
        assertThat(ApiErrors.describe(new IllegalArgumentException("spec.size must be positive")))
                .isEqualTo("java.lang.IllegalArgumentException: spec.size must be positive");
        assertThat(ApiErrors.describe(new UncheckedIOException(null, new java.io.IOException())))
                .isEqualTo("java.io.UncheckedIOException");
    }

    @Test
    void aFailedWriteSaysTheVerbTheResourceAndTheObjectAndA403WhatToGrant() {
        String forbidden = "{\"kind\":\"Status\",\"status\":\"Failure\",\"message\":\"configmaps \\\"a\\\" is"
                + " forbidden: User \\\"bob\\\" cannot update resource \\\"configmaps/status\\\"\",\"reason\":\"Forbidden\","
                + "\"code\":403}";
        FailedCall call = FailedCall.of("update", "configmaps", "status", "ns/a",
                new ApiException(403, Map.of(), forbidden));

        assertThat(ApiErrors.describe(call)).isEqualTo("update configmaps/ns/a/status: HTTP 403 Forbidden:"
                + " configmaps \"a\" is forbidden: User \"bob\" cannot update resource \"configmaps/status\""
                + " — grant update on configmaps/status");
        assertThat(call.getCode()).as("still the server's answer").isEqualTo(403);
        assertThat(ApiErrors.describe(FailedCall.of("patch", "widgets.example.com", null, "w",
                new ApiException(409, Map.of(), CONFLICT)))).startsWith("patch widgets.example.com/w: HTTP 409 Conflict: ")
                .doesNotContain("grant");
    }

    @Test
    void aLongMessageIsCutButTheGrantStays() {
        String body = "{\"message\":\"" + "x".repeat(2_000) + "\",\"reason\":\"Forbidden\"}";
        String line = ApiErrors.describe(FailedCall.of("patch", "configmaps", null, "ns/a",
                new ApiException(403, Map.of(), body)));

        assertThat(line).hasSizeLessThanOrEqualTo(ApiErrors.LIMIT)
                .startsWith("patch configmaps/ns/a: HTTP 403 Forbidden: xxx").endsWith(" — grant patch on configmaps");
        assertThat(ApiErrors.describe(new IllegalStateException("y".repeat(2_000))))
                .hasSize(ApiErrors.LIMIT).endsWith("…");
    }
}
