package dev.watchkeeper.internal.webhook;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.util.io.pem.PemGenerationException;

/**
 * PEM in and out, as Secrets and cert-manager's files hold it: certificates, and private keys in PKCS#8 or the
 * older PKCS#1 / SEC 1 forms (Bouncy Castle reads them all; the JDK reads none).
 */
final class Pem {

    private Pem() {
    }

    static String certificates(List<X509Certificate> certificates) {
        return write(certificates.toArray());
    }

    /** PKCS#8 ({@code PRIVATE KEY}), the form every reader takes. */
    static String privateKey(PrivateKey key) {
        try {
            return write(new JcaPKCS8Generator(key, null));
        } catch (PemGenerationException e) {
            throw new IllegalStateException("cannot write a " + key.getAlgorithm() + " key as PKCS#8", e);
        }
    }

    /**
     * @throws IllegalArgumentException naming {@code source} when it holds no certificate or one that does not parse
     */
    static List<X509Certificate> readCertificates(byte[] pem, String source) {
        try {
            List<X509Certificate> certificates = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem)).stream()
                    .map(X509Certificate.class::cast).toList();
            if (certificates.isEmpty()) {
                throw new IllegalArgumentException(source + " holds no PEM certificate");
            }
            return certificates;
        } catch (CertificateException e) {
            throw new IllegalArgumentException(source + " holds no readable PEM certificate: " + e.getMessage(), e);
        }
    }

    /** @throws IllegalArgumentException naming {@code source} when it holds no readable private key */
    static PrivateKey readPrivateKey(byte[] pem, String source) {
        try (PEMParser parser = new PEMParser(new StringReader(new String(pem, StandardCharsets.US_ASCII)))) {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            for (Object read = parser.readObject(); read != null; read = parser.readObject()) {
                if (read instanceof PEMKeyPair pair) { // PKCS#1 or SEC 1, whose public part may be absent
                    return converter.getPrivateKey(pair.getPrivateKeyInfo());
                }
                if (read instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
            }
            throw new IllegalArgumentException(source + " holds no unencrypted PEM private key");
        } catch (IOException e) {
            throw new IllegalArgumentException(source + " holds no readable PEM private key: " + e.getMessage(), e);
        }
    }

    private static String write(Object... objects) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            for (Object object : objects) {
                writer.writeObject(object);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }
}
