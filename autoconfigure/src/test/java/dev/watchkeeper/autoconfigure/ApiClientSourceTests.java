package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the ApiClient comes from, for a given environment, home directory and service account directory. */
class ApiClientSourceTests {

    private static final String KUBECONFIG = """
            apiVersion: v1
            kind: Config
            clusters:
            - name: c
              cluster:
                server: https://10.0.0.1:6443
                insecure-skip-tls-verify: true
            users:
            - name: u
              user:
                token: t
            contexts:
            - name: x
              context:
                cluster: c
                user: u
            current-context: x
            """;

    @TempDir
    Path home;

    @TempDir
    Path elsewhere;

    private Path serviceAccount() {
        return elsewhere.resolve("serviceaccount");
    }

    @Test
    void theFirstFileOfKubeconfigComesFirst() throws IOException {
        Path file = Files.writeString(elsewhere.resolve("config"), KUBECONFIG);
        homeConfig();
        ApiClientSource source = ApiClientSource.resolve(
                Map.of("KUBECONFIG", file + File.pathSeparator + "/nowhere"), home, serviceAccount());
        assertThat(source).isEqualTo(new ApiClientSource.KubeconfigFile(file, "$KUBECONFIG"));
        assertThat(source.describe()).isEqualTo("kubeconfig " + file + " (from $KUBECONFIG)");
        KubernetesConnectionDetails details = source.connectionDetails();
        assertThat(details.getServerUrl()).isEqualTo("https://10.0.0.1:6443");
        assertThat(details.isVerifyingSsl()).isFalse();
        assertThat(details.getAuthentication()).isNotNull();
        assertThat(details).hasToString(source.describe());
    }

    @Test
    void thenTheConfigInTheHomeDirectory() throws IOException {
        Path file = homeConfig();
        assertThat(ApiClientSource.resolve(Map.of("KUBECONFIG", "/nowhere/config"), home, serviceAccount()))
                .isEqualTo(new ApiClientSource.KubeconfigFile(file, "~/.kube/config"));
    }

    @Test
    void thenTheInClusterServiceAccount() throws IOException {
        Files.createDirectories(serviceAccount());
        Files.writeString(serviceAccount().resolve("ca.crt"), "not read here");
        ApiClientSource source = ApiClientSource.resolve(Map.of(), home, serviceAccount());
        assertThat(source).isEqualTo(new ApiClientSource.InCluster(serviceAccount()));
        assertThat(source.describe()).isEqualTo("the in-cluster service account (" + serviceAccount() + ")");
    }

    @Test
    void noneIsAnErrorSayingWhatWasLookedFor() {
        assertThatThrownBy(() -> ApiClientSource.resolve(Map.of("KUBECONFIG", "/nowhere/config"), home,
                serviceAccount()))
                .isInstanceOfSatisfying(NoKubernetesConfigException.class, e -> assertThat(e.lookedAt())
                        .containsExactly("$KUBECONFIG=/nowhere/config (/nowhere/config does not exist)",
                                home.resolve(".kube/config") + " (does not exist)",
                                "the in-cluster service account, " + serviceAccount().resolve("ca.crt")
                                        + " (does not exist)"))
                .hasMessageContaining("http://localhost:8080");
        assertThatThrownBy(() -> ApiClientSource.resolve(Map.of(), home, serviceAccount()))
                .isInstanceOfSatisfying(NoKubernetesConfigException.class,
                        e -> assertThat(e.lookedAt()).startsWith("$KUBECONFIG (not set)"));
    }

    private Path homeConfig() throws IOException {
        Files.createDirectories(home.resolve(".kube"));
        return Files.writeString(home.resolve(".kube/config"), KUBECONFIG);
    }
}
