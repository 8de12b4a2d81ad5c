package dev.watchkeeper.sample;

import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.controlplane.RealKubeApi;
import io.kubernetes.client.openapi.ApiClient;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;

/**
 * The sample end to end on the real control plane. The sample runs on a token of the {@code watchkeeper-sample}
 * service account, so the RBAC of {@code deploy/02-rbac.yaml} is what it gets, and the real garbage collector
 * removes a deleted generator's ConfigMaps.
 */
@RealKubeApi
class SampleOnControlPlaneTest extends SampleEndToEndScenario {

    /** The JVM's control plane, which {@code @RealKubeApi} started before the superclass's set-up runs. */
    private final KubeControlPlane plane = KubeControlPlane.shared();

    @AfterAll
    void removeExample() {
        plane.kubectl("delete", "--ignore-not-found", "--wait=false", "-f",
                Path.of("deploy", "examples").toAbsolutePath().toString());
    }

    @Override
    String kubectl(String... args) {
        return plane.kubectl(args);
    }

    @Override
    ApiClient apiClient() {
        return plane.apiClient();
    }

    @Override
    Path sampleKubeconfig() throws Exception {
        String token = plane.kubectl("create", "token", "watchkeeper-sample", "-n", "watchkeeper-sample").strip();
        Path kubeconfig = Files.createTempFile("sample-kubeconfig", "");
        kubeconfig.toFile().deleteOnExit();
        return Files.writeString(kubeconfig, Files.readString(plane.kubeconfig())
                .replaceAll("token: .*", "token: " + token));
    }

    @Override
    String garbageCollector() {
        return "kube-controller-manager's garbage collector";
    }
}
