package dev.watchkeeper.internal.webhook;

/**
 * Where the webhook server's certificate comes from: made and kept in a Secret ({@link SecretCertificates}), or
 * read from files another tool writes ({@link FileCertificates}). Asked at start and then periodically, so a
 * renewed certificate is served without a restart.
 */
public sealed interface CertificateSource permits SecretCertificates, FileCertificates {

    /**
     * The certificate to serve now: the same one until it is renewed or its files change.
     *
     * @throws Exception an API or I/O failure, or a certificate that cannot be used, saying which and why
     */
    ServingCertificate current() throws Exception;

    /** Where it comes from, for logs and the actuator endpoint. */
    String describe();
}
