package dev.watchkeeper.internal.webhook;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;

/**
 * A certificate from files, as cert-manager mounts a Secret: {@code tls.crt} (the chain), {@code tls.key} and,
 * when present, {@code ca.crt} (the caBundle; without it, the last certificate of {@code tls.crt}). Read again only
 * when a file's bytes changed, so each periodic check is three small reads.
 */
public final class FileCertificates implements CertificateSource {

    private final Path dir;
    private byte[][] read;
    private ServingCertificate current;

    public FileCertificates(Path dir) {
        this.dir = dir;
    }

    @Override
    public synchronized ServingCertificate current() throws IOException {
        Path certificateFile = dir.resolve("tls.crt");
        Path keyFile = dir.resolve("tls.key");
        Path caFile = dir.resolve("ca.crt");
        byte[][] bytes = {Files.readAllBytes(certificateFile), Files.readAllBytes(keyFile),
                Files.exists(caFile) ? Files.readAllBytes(caFile) : new byte[0]};
        if (current != null && Arrays.deepEquals(bytes, read)) {
            return current;
        }
        List<X509Certificate> chain = Pem.readCertificates(bytes[0], certificateFile.toString());
        PrivateKey key = Pem.readPrivateKey(bytes[1], keyFile.toString());
        if (!key.getAlgorithm().equals(chain.get(0).getPublicKey().getAlgorithm())) {
            throw new IllegalArgumentException(keyFile + " holds a " + key.getAlgorithm() + " key, but the"
                    + " certificate in " + certificateFile + " is for a " + chain.get(0).getPublicKey().getAlgorithm()
                    + " key");
        }
        List<X509Certificate> authorities = bytes[2].length > 0 ? Pem.readCertificates(bytes[2], caFile.toString())
                : List.of(chain.get(chain.size() - 1));
        current = new ServingCertificate(key, chain, authorities);
        read = bytes;
        return current;
    }

    @Override
    public String describe() {
        return "files tls.crt and tls.key in " + dir;
    }
}
