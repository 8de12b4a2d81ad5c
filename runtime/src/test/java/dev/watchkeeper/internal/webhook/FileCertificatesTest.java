package dev.watchkeeper.internal.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileCertificatesTest {

    static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");

    @TempDir
    Path dir;

    @Test
    void readsTheFiles_keepsTheSameCertificateWhileTheyAreUnchanged_andTakesUpNewOnes() throws Exception {
        CertificateAuthority authority = CertificateAuthority.create("test-ca", NOW);
        write(authority.issue(List.of("webhooks.example.svc"), List.of(), NOW), true);
        FileCertificates files = new FileCertificates(dir);

        ServingCertificate first = files.current();
        assertThat(first.chain().get(0).getSubjectAlternativeNames()).extracting(name -> (Object) name.get(1))
                .containsExactly((Object) "webhooks.example.svc");
        assertThat(first.authorities()).containsExactly(authority.certificate());
        assertThat(files.current()).isSameAs(first);

        write(authority.issue(List.of("other.example.svc"), List.of("127.0.0.1"), NOW), false);
        ServingCertificate second = files.current();
        assertThat(second).isNotSameAs(first);
        assertThat(second.chain().get(0).getSubjectAlternativeNames()).extracting(name -> (Object) name.get(1))
                .containsExactly((Object) "other.example.svc", "127.0.0.1");
        // without ca.crt, the caBundle is the last certificate of tls.crt
        assertThat(second.authorities()).containsExactly(second.chain().get(0));
    }

    @Test
    void aFileThatHoldsNoKeyIsNamedInTheError() throws Exception {
        CertificateAuthority authority = CertificateAuthority.create("test-ca", NOW);
        write(authority.issue(List.of("a.b.svc"), List.of(), NOW), false);
        Files.writeString(dir.resolve("tls.key"), "not a key\n");

        assertThatThrownBy(() -> new FileCertificates(dir).current())
                .hasMessage(dir.resolve("tls.key") + " holds no unencrypted PEM private key");
    }

    private void write(ServingCertificate certificate, boolean withCa) throws Exception {
        Files.writeString(dir.resolve("tls.crt"), Pem.certificates(certificate.chain()));
        Files.writeString(dir.resolve("tls.key"), Pem.privateKey(certificate.key()));
        if (withCa) {
            Files.writeString(dir.resolve("ca.crt"), Pem.certificates(certificate.authorities()));
        } else {
            Files.deleteIfExists(dir.resolve("ca.crt"));
        }
    }
}
