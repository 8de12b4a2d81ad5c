package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The auto-configured {@code ApiClient} is built from the application's {@link KubernetesConnectionDetails}. */
class KubernetesConnectionDetailsTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class));

    @Test
    void theApplicationsConnectionDetailsComeBeforeAnyKubeconfigOrServiceAccount() {
        runner.withBean(KubernetesConnectionDetails.class, () -> () -> "http://127.0.0.1:7").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(KubernetesConnectionDetails.class);
            assertThat(context.getBean(ApiClient.class).getBasePath()).isEqualTo("http://127.0.0.1:7");
        });
    }

    @Test
    void theDetailsOfAKubeconfigAreWhatClientJavaReadsFromIt() throws IOException {
        KubernetesConnectionDetails details = KubernetesConnectionDetails.fromKubeconfig(
                KubeConfig.loadKubeConfig(new StringReader("""
                        apiVersion: v1
                        kind: Config
                        clusters:
                        - name: c
                          cluster:
                            server: https://10.0.0.1:6443
                            tls-server-name: api.example
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
                        """)), "a test kubeconfig");

        assertThat(details.getServerUrl()).isEqualTo("https://10.0.0.1:6443");
        assertThat(details.getTlsServerName()).isEqualTo("api.example");
        assertThat(details.isVerifyingSsl()).isTrue();
        assertThat(details.getCertificateAuthority()).isNull();
        assertThat(details).hasToString("a test kubeconfig"); // and not the token
        runner.withBean(KubernetesConnectionDetails.class, () -> details)
                .run(context -> assertThat(context.getBean(ApiClient.class).getBasePath())
                        .isEqualTo("https://10.0.0.1:6443"));
    }

    @Test
    void anApiClientOfTheApplicationsNeedsNoConnectionDetails() {
        runner.withBean(ApiClient.class, () -> new ApiClient().setBasePath("http://127.0.0.1:1")).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(KubernetesConnectionDetails.class);
            assertThat(context.getBean(ApiClient.class).getBasePath()).isEqualTo("http://127.0.0.1:1");
        });
    }
}
