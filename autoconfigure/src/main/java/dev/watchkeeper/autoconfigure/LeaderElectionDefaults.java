package dev.watchkeeper.autoconfigure;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.springframework.core.env.Environment;

/**
 * The values {@code watchkeeper.leader-election.*} (and {@code watchkeeper.sharding.*}) leave unset, as client-go's users usually pick them: the pod's
 * namespace and name.
 */
final class LeaderElectionDefaults {

    /** Where Kubernetes mounts the pod's namespace with its service account token. */
    static final Path NAMESPACE_FILE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

    private LeaderElectionDefaults() {
    }

    /** {@code <spring.application.name>-leader}, or {@code watchkeeper-leader}. */
    static String leaseName(Environment environment) {
        return applicationName(environment) + "-leader";
    }

    /** {@code spring.application.name}, or {@code watchkeeper}: also the default sharding group. */
    static String applicationName(Environment environment) {
        return environment.getProperty("spring.application.name", "watchkeeper");
    }

    /** The pod's namespace from the service account mount, else {@code default}. */
    static String leaseNamespace(Path namespaceFile) {
        try {
            if (Files.isReadable(namespaceFile)) {
                String namespace = Files.readString(namespaceFile, StandardCharsets.UTF_8).strip();
                if (!namespace.isEmpty()) {
                    return namespace;
                }
            }
        } catch (IOException e) {
            // unreadable: not in a pod, as far as we can tell
        }
        return "default";
    }

    /** The host name ({@code HOSTNAME}, a pod's name) and a random suffix, so a restarted pod is a new holder. */
    static String identity() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                host = "watchkeeper";
            }
        }
        return host + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
