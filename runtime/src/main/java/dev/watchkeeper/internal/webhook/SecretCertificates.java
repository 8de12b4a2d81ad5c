package dev.watchkeeper.internal.webhook;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A CA and a serving certificate the starter makes itself and keeps in a Secret, so every replica serves the same
 * pair and the webhook configurations' caBundle stays valid across restarts. The first replica to find no Secret
 * creates it; one that loses that race (409) reads the winner's. A serving certificate that expires within
 * {@link #RENEW_BEFORE}, or does not name every host the API server may call, is issued again by the same CA and
 * the Secret replaced with its resourceVersion (a 409 means another replica renewed first: its pair is read), so
 * renewal needs no new caBundle. The CA itself is not rotated.
 *
 * <p>The Secret (type {@code kubernetes.io/tls}) holds {@code tls.crt}, {@code tls.key}, {@code ca.crt} and the CA's
 * key, {@code ca.key}: whoever can read it can issue certificates the webhooks' API server trusts, so grant
 * {@code get} on it to the application alone.
 */
public final class SecretCertificates implements CertificateSource {

    /** Renewed this long before it expires, so a replica that checks only at start still renews in time. */
    static final Duration RENEW_BEFORE = Duration.ofDays(30);
    private static final String CA_KEY = "ca.key";
    private static final int ATTEMPTS = 3;
    private static final Logger log = LoggerFactory.getLogger(SecretCertificates.class);

    private final CoreV1Api core;
    private final String namespace;
    private final String name;
    private final List<String> dnsNames;
    private final List<String> ipAddresses;
    private final Clock clock;
    private ServingCertificate current;

    /**
     * @param dnsNames, ipAddresses what the serving certificate must name: every host in the webhooks' URL or
     *                  service
     */
    public SecretCertificates(ApiClient client, String namespace, String name, List<String> dnsNames,
            List<String> ipAddresses, Clock clock) {
        if (dnsNames.isEmpty() && ipAddresses.isEmpty()) {
            throw new IllegalArgumentException("a serving certificate needs at least one host name or address");
        }
        this.core = new CoreV1Api(client);
        this.namespace = namespace;
        this.name = name;
        this.dnsNames = List.copyOf(dnsNames);
        this.ipAddresses = List.copyOf(ipAddresses);
        this.clock = clock;
    }

    @Override
    public synchronized ServingCertificate current() throws ApiException {
        if (current != null && usable(current.chain().get(0))) {
            return current;
        }
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            V1Secret secret = read();
            try {
                current = secret == null ? create() : renewIfNeeded(secret);
                return current;
            } catch (ApiException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt == ATTEMPTS) {
                    throw e;
                }
                log.debug("another replica wrote Secret {}/{} first; reading it", namespace, name);
            }
        }
        throw new IllegalStateException("unreachable"); // the last attempt returns or throws
    }

    @Override
    public String describe() {
        return "Secret " + namespace + "/" + name + " (made by the starter)";
    }

    private V1Secret read() throws ApiException {
        try {
            return core.readNamespacedSecret(name, namespace).execute();
        } catch (ApiException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return null;
            }
            throw e;
        }
    }

    private ServingCertificate create() throws ApiException {
        Instant now = clock.instant();
        CertificateAuthority authority = CertificateAuthority.create(name + "-ca", now);
        ServingCertificate serving = authority.issue(dnsNames, ipAddresses, now);
        core.createNamespacedSecret(namespace, secret(new V1Secret().metadata(new V1ObjectMeta().name(name)
                .namespace(namespace).labels(Map.of("app.kubernetes.io/managed-by", "watchkeeper"))),
                authority, serving)).execute();
        log.info("created a webhook CA and serving certificate in Secret {}/{}, valid until {}", namespace, name,
                serving.notAfter());
        return serving;
    }

    private ServingCertificate renewIfNeeded(V1Secret secret) throws ApiException {
        Map<String, byte[]> data = secret.getData() == null ? Map.of() : secret.getData();
        for (String key : List.of("tls.crt", "tls.key", "ca.crt", CA_KEY)) {
            if (data.get(key) == null) {
                throw new IllegalStateException("Secret " + namespace + "/" + name + " has no " + key + ": it is"
                        + " not one the starter made; delete it to have one made, or name another with"
                        + " watchkeeper.webhooks.certificate-secret");
            }
        }
        String source = "Secret " + namespace + "/" + name;
        List<X509Certificate> authorities = Pem.readCertificates(data.get("ca.crt"), source + " ca.crt");
        ServingCertificate stored = new ServingCertificate(Pem.readPrivateKey(data.get("tls.key"), source + " tls.key"),
                Pem.readCertificates(data.get("tls.crt"), source + " tls.crt"), authorities);
        if (usable(stored.chain().get(0))) {
            return stored;
        }
        CertificateAuthority authority = new CertificateAuthority(authorities.get(0),
                Pem.readPrivateKey(data.get(CA_KEY), source + " " + CA_KEY));
        ServingCertificate renewed = authority.issue(dnsNames, ipAddresses, clock.instant());
        core.replaceNamespacedSecret(name, namespace, secret(secret, authority, renewed)).execute();
        log.info("renewed the webhook serving certificate in {} (it expired {} or named other hosts), valid until {}",
                source, stored.notAfter(), renewed.notAfter());
        return renewed;
    }

    /** Valid for longer than {@link #RENEW_BEFORE} and naming every host. */
    private boolean usable(X509Certificate certificate) {
        if (certificate.getNotAfter().toInstant().isBefore(clock.instant().plus(RENEW_BEFORE))) {
            return false;
        }
        Set<String> named = new HashSet<>();
        try {
            if (certificate.getSubjectAlternativeNames() != null) {
                certificate.getSubjectAlternativeNames().forEach(entry -> named.add(String.valueOf(entry.get(1))));
            }
        } catch (CertificateParsingException e) {
            return false;
        }
        return named.containsAll(dnsNames) && named.containsAll(ipAddresses);
    }

    private static V1Secret secret(V1Secret base, CertificateAuthority authority, ServingCertificate serving) {
        Map<String, byte[]> data = new LinkedHashMap<>();
        data.put("tls.crt", Pem.certificates(serving.chain()).getBytes(StandardCharsets.US_ASCII));
        data.put("tls.key", Pem.privateKey(serving.key()).getBytes(StandardCharsets.US_ASCII));
        data.put("ca.crt", Pem.certificates(List.of(authority.certificate())).getBytes(StandardCharsets.US_ASCII));
        data.put(CA_KEY, Pem.privateKey(authority.key()).getBytes(StandardCharsets.US_ASCII));
        return base.type("kubernetes.io/tls").data(data);
    }
}
