package dev.watchkeeper.internal.webhook;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The webhook server's key manager: serves whichever {@link ServingCertificate} it was last given, so a renewed or
 * reloaded certificate applies to the next TLS handshake without restarting the server.
 */
final class ServingKeyManager extends X509ExtendedKeyManager {

    private static final String ALIAS = "webhook";

    private volatile ServingCertificate current;

    ServingKeyManager(ServingCertificate initial) {
        this.current = initial;
    }

    void serve(ServingCertificate certificate) {
        current = certificate;
    }

    ServingCertificate current() {
        return current;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return chooseServerAlias(keyType, issuers, null);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return current.key().getAlgorithm().equals(keyType) ? ALIAS : null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        String alias = chooseServerAlias(keyType, issuers, null);
        return alias == null ? null : new String[] {alias};
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return ALIAS.equals(alias) ? current.chain().toArray(X509Certificate[]::new) : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return ALIAS.equals(alias) ? current.key() : null;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null; // a server only
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }
}
