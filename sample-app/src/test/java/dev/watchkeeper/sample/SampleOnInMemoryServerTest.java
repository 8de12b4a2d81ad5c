package dev.watchkeeper.sample;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;

/**
 * The same end-to-end scenario on the in-memory API server: the same manifests through the same kubectl, the same
 * sample process, and the in-memory server's garbage collector. It has no RBAC, so the sample runs on its
 * kubeconfig rather than a service account's token. kubectl is the one built with the control plane: without Go
 * this class is skipped with the reason, as the control-plane tests are.
 */
class SampleOnInMemoryServerTest extends SampleEndToEndScenario {

    private final InMemoryApiServer server = new InMemoryApiServer().start();
    private final Path dir;

    SampleOnInMemoryServerTest() throws IOException {
        dir = Files.createTempDirectory("sample-in-memory");
        server.writeKubeconfig(dir);
    }

    @AfterAll
    void stopServer() throws IOException {
        server.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    @Override
    String kubectl(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(KubeControlPlane.shared().kubectl().toString(),
                "--kubeconfig", dir.resolve("kubeconfig").toString(), "--cache-dir", dir.resolve("cache").toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "kubectl", ".out");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException("kubectl " + String.join(" ", args) + " failed: " + Files.readString(out));
        }
        return Files.readString(out);
    }

    @Override
    ApiClient apiClient() {
        return server.apiClient();
    }

    @Override
    Path sampleKubeconfig() {
        return dir.resolve("kubeconfig");
    }

    @Override
    String garbageCollector() {
        return "the in-memory server's garbage collector";
    }
}
