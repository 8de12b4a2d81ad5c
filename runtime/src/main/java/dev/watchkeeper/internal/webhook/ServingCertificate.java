package dev.watchkeeper.internal.webhook;

import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;

/**
 * What the webhook server serves with, and what the API server must trust.
 *
 * @param key         the serving certificate's private key
 * @param chain       the serving certificate first, then any intermediates
 * @param authorities the CA certificates for the webhook configurations' {@code caBundle}
 */
public record ServingCertificate(PrivateKey key, List<X509Certificate> chain, List<X509Certificate> authorities) {

    public ServingCertificate {
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("a serving certificate chain needs at least one certificate");
        }
        chain = List.copyOf(chain);
        authorities = List.copyOf(authorities);
    }

    /** When the serving certificate expires. */
    public Instant notAfter() {
        return chain.get(0).getNotAfter().toInstant();
    }

    /** The {@code caBundle}: the authorities, PEM-encoded. */
    public byte[] caBundle() {
        return Pem.certificates(authorities).getBytes(StandardCharsets.US_ASCII);
    }
}
