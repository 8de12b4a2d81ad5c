package dev.watchkeeper.internal.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedactionTest {

    @Test
    void masksBearerAndBasicCredentials() {
        assertThat(Redaction.of("Unauthorized: Authorization: Bearer eyJhbGciOiJSUzI1NiJ9.abc.def was rejected"))
                .isEqualTo("Unauthorized: Authorization: Bearer <redacted> was rejected");
        assertThat(Redaction.of("header authorization=Basic dXNlcjpwYXNz")).isEqualTo(
                "header authorization=Basic <redacted>");
    }

    @Test
    void masksTheValuesOfCredentialFields() {
        assertThat(Redaction.of("{\"token\":\"s3cr3t\",\"user\":\"me\"}")).isEqualTo(
                "{\"token\":\"<redacted>\",\"user\":\"me\"}");
        assertThat(Redaction.of("password=hunter2; client-key-data: abc")).isEqualTo(
                "password=<redacted>; client-key-data: <redacted>");
    }

    @Test
    void masksPemBlocksAndTheirBase64Form() {
        assertThat(Redaction.of("key -----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY----- end"))
                .isEqualTo("key <redacted> end");
        assertThat(Redaction.of("key LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo= end")).isEqualTo("key <redacted> end");
    }

    @Test
    void cutsAnEchoedObjectWhereItsContentsBegin() {
        assertThat(Redaction.of("Secret \"s\" is invalid: {\"metadata\":{\"name\":\"s\"},\"data\":{\"p\":\"x\"}}"))
                .isEqualTo("Secret \"s\" is invalid: {\"metadata\":{\"name\":\"s\"},…");
        assertThat(Redaction.of("{\"kind\":\"Deployment\",\"spec\" : {\"replicas\":1}}")).isEqualTo(
                "{\"kind\":\"Deployment\",…");
        assertThat(Redaction.of("{\"stringData\":{\"p\":\"x\"}}")).isEqualTo("{…");
    }

    @Test
    void capsAt200Characters() {
        assertThat(Redaction.of("x".repeat(500))).isEqualTo("x".repeat(200) + "…");
        assertThat(Redaction.of("plain message")).isEqualTo("plain message");
        assertThat(Redaction.of(null)).isEmpty();
    }
}
