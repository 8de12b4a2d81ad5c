package dev.watchkeeper.autoconfigure;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.persister.FilePersister;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.Config;
import io.kubernetes.client.util.KubeConfig;
import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where Watchkeeper's {@link ApiClient} connects to when the application defines no
 * {@link KubernetesConnectionDetails}, found in the order of client-java's
 * {@code ClientBuilder.standard()}: the first file of {@code $KUBECONFIG}, {@code ~/.kube/config}, then the
 * in-cluster service account. Where the client would then quietly use {@code http://localhost:8080}, this fails
 * with a {@link NoKubernetesConfigException} saying what it looked for.
 *
 * <pre>{@code
 * ApiClientSource source = ApiClientSource.resolve(System.getenv(), home, Path.of(Config.SERVICEACCOUNT_ROOT));
 * KubernetesConnectionDetails details = source.connectionDetails(); // "kubeconfig /home/me/.kube/config (from ...)"
 * }</pre>
 */
sealed interface ApiClientSource {

    /** What this source configures, described by {@link #describe()}. */
    KubernetesConnectionDetails connectionDetails() throws IOException;

    /** For the start-up log line. */
    String describe();

    /**
     * @param file     the kubeconfig file
     * @param foundVia {@code $KUBECONFIG} or {@code ~/.kube/config}
     */
    record KubeconfigFile(Path file, String foundVia) implements ApiClientSource {

        /** As {@code ClientBuilder.standard()} does: refreshed credentials are written back to the file. */
        @Override
        public KubernetesConnectionDetails connectionDetails() throws IOException {
            try (Reader reader = Files.newBufferedReader(file)) {
                KubeConfig config = KubeConfig.loadKubeConfig(reader);
                config.setPersistConfig(new FilePersister(file.toFile()));
                config.setFile(file.toFile());
                return DiscoveredConnectionDetails.fromKubeconfig(config, describe());
            }
        }

        @Override
        public String describe() {
            return "kubeconfig " + file + " (from " + foundVia + ")";
        }
    }

    /** @param serviceAccount the directory of the mounted service account token and CA */
    record InCluster(Path serviceAccount) implements ApiClientSource {

        @Override
        public KubernetesConnectionDetails connectionDetails() throws IOException {
            return DiscoveredConnectionDetails.of(ClientBuilder.cluster(),
                    Files.readAllBytes(serviceAccount.resolve("ca.crt")), describe());
        }

        @Override
        public String describe() {
            return "the in-cluster service account (" + serviceAccount + ")";
        }
    }

    /** The source for this process: its environment, its home directory and the standard service account path. */
    static ApiClientSource standard() {
        Map<String, String> env = System.getenv();
        String home = env.getOrDefault(KubeConfig.ENV_HOME, "");
        return resolve(env, Path.of(home.isEmpty() ? System.getProperty("user.home") : home),
                Path.of(Config.SERVICEACCOUNT_ROOT));
    }

    /**
     * The first source that exists.
     *
     * @param env            environment variables ({@code KUBECONFIG})
     * @param home           the user's home directory
     * @param serviceAccount where a pod's service account is mounted
     * @throws NoKubernetesConfigException when there is none
     */
    static ApiClientSource resolve(Map<String, String> env, Path home, Path serviceAccount) {
        List<String> lookedAt = new ArrayList<>();
        String variable = env.get(Config.ENV_KUBECONFIG);
        if (variable == null || variable.isEmpty()) {
            lookedAt.add("$KUBECONFIG (not set)");
        } else {
            // client-java reads only the first file of a list
            Path first = Path.of(variable.split(File.pathSeparator)[0]);
            if (Files.isRegularFile(first)) {
                return new KubeconfigFile(first, "$KUBECONFIG");
            }
            lookedAt.add("$KUBECONFIG=" + variable + " (" + first + " does not exist)");
        }
        Path inHome = home.resolve(KubeConfig.KUBEDIR).resolve(KubeConfig.KUBECONFIG);
        if (Files.isRegularFile(inHome)) {
            return new KubeconfigFile(inHome, "~/.kube/config");
        }
        lookedAt.add(inHome + " (does not exist)");
        Path ca = serviceAccount.resolve("ca.crt");
        if (Files.isRegularFile(ca)) {
            return new InCluster(serviceAccount);
        }
        lookedAt.add("the in-cluster service account, " + ca + " (does not exist)");
        throw new NoKubernetesConfigException(lookedAt);
    }
}
