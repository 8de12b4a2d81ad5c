package dev.watchkeeper.internal.webhook;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A self-signed CA that issues the webhook server's certificate, with Bouncy Castle's certificate builder (the JDK
 * has none outside its internal packages). Keys are ECDSA P-256: quick to make, and what the API server accepts.
 *
 * @param certificate the CA's certificate, the {@code caBundle}
 * @param key         its private key, kept with it so any replica can issue again
 */
record CertificateAuthority(X509Certificate certificate, PrivateKey key) {

    /** How long a CA lasts; the API server trusts it by the configurations' caBundle, so it should rarely change. */
    static final Duration CA_VALIDITY = Duration.ofDays(3650);
    /** How long a serving certificate lasts before the CA issues the next one. */
    static final Duration SERVING_VALIDITY = Duration.ofDays(365);
    /** Certificates start this long in the past, for clocks a little behind this one. */
    static final Duration BACKDATE = Duration.ofHours(1);
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A new CA named {@code commonName}, valid from {@code now}. */
    static CertificateAuthority create(String commonName, Instant now) {
        KeyPair keys = newKeyPair();
        X500Name name = new X500Name("CN=" + commonName);
        try {
            X509v3CertificateBuilder builder = builder(name, name, keys.getPublic(), now, CA_VALIDITY)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            new JcaX509ExtensionUtils().createSubjectKeyIdentifier(keys.getPublic()));
            return new CertificateAuthority(sign(builder, keys.getPrivate()), keys.getPrivate());
        } catch (CertIOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot create the webhook CA: " + e.getMessage(), e);
        }
    }

    /** A serving certificate for {@code dnsNames} and {@code ipAddresses}, signed by this CA. */
    ServingCertificate issue(List<String> dnsNames, List<String> ipAddresses, Instant now) {
        KeyPair keys = newKeyPair();
        List<GeneralName> names = new ArrayList<>();
        dnsNames.forEach(name -> names.add(new GeneralName(GeneralName.dNSName, name)));
        ipAddresses.forEach(address -> names.add(new GeneralName(GeneralName.iPAddress, address)));
        String commonName = dnsNames.isEmpty() ? ipAddresses.get(0) : dnsNames.get(0);
        try {
            X509v3CertificateBuilder builder = builder(
                    X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()),
                    new X500Name("CN=" + commonName),
                    keys.getPublic(), now, servingValidity(now))
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false,
                            new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                    .addExtension(Extension.subjectAlternativeName, false,
                            new GeneralNames(names.toArray(GeneralName[]::new)))
                    .addExtension(Extension.authorityKeyIdentifier, false,
                            new JcaX509ExtensionUtils().createAuthorityKeyIdentifier(certificate));
            return new ServingCertificate(keys.getPrivate(), List.of(sign(builder, key)), List.of(certificate));
        } catch (CertIOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot issue the webhook serving certificate: " + e.getMessage(), e);
        }
    }

    /** {@link #SERVING_VALIDITY}, or less: a certificate never outlives the CA that issued it. */
    private Duration servingValidity(Instant now) {
        Duration left = Duration.between(now, certificate.getNotAfter().toInstant());
        return left.compareTo(SERVING_VALIDITY) < 0 ? left : SERVING_VALIDITY;
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, PublicKey key, Instant now,
            Duration validity) {
        return new JcaX509v3CertificateBuilder(issuer, new BigInteger(127, RANDOM).add(BigInteger.ONE),
                Date.from(now.minus(BACKDATE)), Date.from(now.plus(validity)), subject, key);
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer)
            throws GeneralSecurityException {
        try {
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder(SIGNATURE).build(signer)));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM cannot make EC P-256 keys: " + e.getMessage(), e);
        }
    }
}
