package dev.watchkeeper.internal.webhook;

import dev.watchkeeper.internal.api.Calls;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A CA and a serving certificate the starter makes itself and keeps in a Secret, so every replica serves the same
 * pair and the webhook configurations' caBundle stays valid across restarts. The first replica to find no Secret
 * creates it; one that loses that race (409) reads the winner's. Each call reads the Secret (one GET, a minute
 * apart) and writes it, with its resourceVersion, only when something is due; a 409 then means another replica
 * wrote first, and its Secret is read again.
 *
 * <p>What falls due: a serving certificate that expires within {@link #RENEW_BEFORE} or does not name every host is
 * issued again by the current CA (the caBundle does not change). A CA that expires within
 * {@link #CA_RENEW_BEFORE} is rotated with an overlap: a new CA joins the bundle ({@code ca.crt}: the new CA
 * first, then every older one not yet expired), the serving certificate stays for {@link #CA_OVERLAP} while the
 * webhooks are registered with the longer bundle, and only then is it issued by the new CA.
 *
 * <p>The Secret (type {@code kubernetes.io/tls}) holds {@code tls.crt}, {@code tls.key}, {@code ca.crt} and the
 * current CA's key, {@code ca.key}: whoever can read it can issue certificates the webhooks' API server trusts, so
 * grant {@code get} on it to the application alone.
 */
public final class SecretCertificates implements CertificateSource {

    /** A serving certificate is renewed this long before it expires. */
    static final Duration RENEW_BEFORE = Duration.ofDays(30);
    /** A CA is rotated this long before it expires. */
    static final Duration CA_RENEW_BEFORE = Duration.ofDays(365);
    /**
     * How long a new CA is in the bundle before a certificate it issued is served: every replica's refresh (a
     * minute apart) registers the bundle, and the API server takes the configuration up within moments.
     */
    static final Duration CA_OVERLAP = Duration.ofHours(1);
    private static final String CA_KEY = "ca.key";
    private static final int ATTEMPTS = 3;
    private static final Logger log = LoggerFactory.getLogger(SecretCertificates.class);

    private final ApiClient client;
    /** Builds the calls; {@link Calls} sends them and reads the answers as the watchers read objects. */
    private final CoreV1Api core;
    private final String namespace;
    private final String name;
    private final List<String> dnsNames;
    private final List<String> ipAddresses;
    private final Clock clock;
    private ServingCertificate current;
    private String currentVersion;

    /**
     * @param dnsNames, ipAddresses what the serving certificate must name: every host in the webhooks' URL or
     *                  service
     */
    public SecretCertificates(ApiClient client, String namespace, String name, List<String> dnsNames,
            List<String> ipAddresses, Clock clock) {
        if (dnsNames.isEmpty() && ipAddresses.isEmpty()) {
            throw new IllegalArgumentException("a serving certificate needs at least one host name or address");
        }
        this.client = client;
        this.core = new CoreV1Api(client);
        this.namespace = namespace;
        this.name = name;
        this.dnsNames = List.copyOf(dnsNames);
        this.ipAddresses = List.copyOf(ipAddresses);
        this.clock = clock;
    }

    /** The same instance as last time while the Secret is unchanged and nothing is due. */
    @Override
    public synchronized ServingCertificate current() throws ApiException {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            V1Secret secret = read();
            try {
                return secret == null ? create() : update(secret);
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
            return Calls.object(client, core.readNamespacedSecret(name, namespace).buildCall(null), V1Secret.class);
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
        V1Secret wanted = secret(new V1Secret().metadata(new V1ObjectMeta().name(name).namespace(namespace)
                .labels(Map.of("app.kubernetes.io/managed-by", "watchkeeper"))), authority, serving);
        V1Secret created = Calls.object(client, core.createNamespacedSecret(namespace, wanted).buildCall(null),
                V1Secret.class);
        log.info("created a webhook CA and serving certificate in Secret {}/{}, valid until {}", namespace, name,
                serving.notAfter());
        return remember(serving, created);
    }

    /** The Secret's pair, after writing what is due. */
    private ServingCertificate update(V1Secret secret) throws ApiException {
        if (current != null && Objects.equals(secret.getMetadata().getResourceVersion(), currentVersion)
                && !due(current)) {
            return current;
        }
        Map<String, byte[]> data = secret.getData() == null ? Map.of() : secret.getData();
        for (String key : List.of("tls.crt", "tls.key", "ca.crt", CA_KEY)) {
            if (data.get(key) == null) {
                throw new IllegalStateException("Secret " + namespace + "/" + name + " has no " + key + ": it is"
                        + " not one the starter made; delete it to have one made, or name another with"
                        + " watchkeeper.webhooks.certificate-secret");
            }
        }
        String source = "Secret " + namespace + "/" + name;
        Instant now = clock.instant();
        List<X509Certificate> bundle = Pem.readCertificates(data.get("ca.crt"), source + " ca.crt");
        CertificateAuthority authority = new CertificateAuthority(bundle.get(0),
                Pem.readPrivateKey(data.get(CA_KEY), source + " " + CA_KEY));
        ServingCertificate serving = new ServingCertificate(
                Pem.readPrivateKey(data.get("tls.key"), source + " tls.key"),
                Pem.readCertificates(data.get("tls.crt"), source + " tls.crt"), bundle);
        List<String> changes = new ArrayList<>();
        CertificateAuthority stored = authority;
        if (expiresWithin(stored.certificate(), CA_RENEW_BEFORE, now)) {
            authority = CertificateAuthority.create(name + "-ca", now);
            changes.add("added a new CA to the bundle, the old one expiring "
                    + bundle.get(0).getNotAfter().toInstant());
        }
        boolean overlapOver = !now.isBefore(madeAt(authority.certificate()).plus(CA_OVERLAP));
        if (!usable(serving.chain().get(0), now)) { // during the overlap, from the CA the API server trusts already
            serving = (overlapOver ? authority : stored).issue(dnsNames, ipAddresses, now);
            changes.add("issued a serving certificate valid until " + serving.notAfter());
        } else if (overlapOver && !issuedBy(serving.chain().get(0), authority.certificate())) {
            serving = authority.issue(dnsNames, ipAddresses, now);
            changes.add("issued a serving certificate by the new CA, valid until " + serving.notAfter());
        }
        List<X509Certificate> authorities = new ArrayList<>();
        authorities.add(authority.certificate());
        X509Certificate newest = authority.certificate();
        bundle.stream().filter(ca -> !ca.equals(newest) && ca.getNotAfter().toInstant().isAfter(now))
                .forEach(authorities::add);
        ServingCertificate result = new ServingCertificate(serving.key(), serving.chain(), authorities);
        if (changes.isEmpty() && authorities.equals(bundle)) {
            return remember(result, secret);
        }
        V1Secret written = Calls.object(client,
                core.replaceNamespacedSecret(name, namespace, secret(secret, authority, result)).buildCall(null),
                V1Secret.class);
        log.info("{}: {}", source,
                changes.isEmpty() ? "dropped expired CAs from the bundle" : String.join("; ", changes));
        return remember(result, written);
    }

    private ServingCertificate remember(ServingCertificate certificate, V1Secret secret) {
        current = certificate;
        currentVersion = secret.getMetadata().getResourceVersion();
        return certificate;
    }

    /** Something to write even though the Secret is as last read: a certificate or CA falls due. */
    private boolean due(ServingCertificate certificate) {
        Instant now = clock.instant();
        X509Certificate newest = certificate.authorities().get(0);
        return !usable(certificate.chain().get(0), now) || expiresWithin(newest, CA_RENEW_BEFORE, now)
                || !issuedBy(certificate.chain().get(0), newest)
                        && !now.isBefore(madeAt(newest).plus(CA_OVERLAP));
    }

    /** By signature: a rotated CA keeps its predecessor's name. */
    private static boolean issuedBy(X509Certificate certificate, X509Certificate authority) {
        try {
            certificate.verify(authority.getPublicKey());
            return true;
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static Instant madeAt(X509Certificate authority) {
        return authority.getNotBefore().toInstant().plus(CertificateAuthority.BACKDATE);
    }

    private static boolean expiresWithin(X509Certificate certificate, Duration margin, Instant now) {
        return certificate.getNotAfter().toInstant().isBefore(now.plus(margin));
    }

    /** Valid for longer than {@link #RENEW_BEFORE} and naming every host. */
    private boolean usable(X509Certificate certificate, Instant now) {
        if (expiresWithin(certificate, RENEW_BEFORE, now)) {
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
        data.put("ca.crt", Pem.certificates(serving.authorities()).getBytes(StandardCharsets.US_ASCII));
        data.put(CA_KEY, Pem.privateKey(authority.key()).getBytes(StandardCharsets.US_ASCII));
        return base.type("kubernetes.io/tls").data(data);
    }
}
