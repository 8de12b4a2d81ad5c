package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/** The real {@code kubectl} against the fake: version, create, get, watch and delete. */
class KubectlFidelityTest {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private InMemoryApiServer server;
    private Path kubectl;
    private Path kubeconfig;

    @BeforeEach
    void start() throws IOException {
        kubectl = findKubectl();
        server = new InMemoryApiServer().start();
        kubeconfig = server.writeKubeconfig(dir);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void kubectlCreatesGetsWatchesAndDeletes() throws Exception {
        String version = run("version");
        System.out.println("kubectl version against InMemoryApiServer:\n" + version);
        assertThat(version).contains("Client Version:", "Server Version: v1.32.0-watchkeeper");

        Path manifest = Files.writeString(dir.resolve("cm.yaml"), """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: x
                data:
                  k: v1
                """);
        assertThat(run("create", "--validate=false", "-f", manifest.toString())).contains("configmap/x created");

        JsonObject list = JsonParser.parseString(run("get", "configmaps", "-o", "json")).getAsJsonObject();
        assertThat(list.getAsJsonArray("items")).hasSize(1);
        assertThat(list.getAsJsonArray("items").get(0).getAsJsonObject().getAsJsonObject("data")
                .get("k").getAsString()).isEqualTo("v1");

        Path watchOutput = dir.resolve("watch.out");
        Process watch = command("get", "configmap", "x", "-w", "-o", "jsonpath={.data.k}{\"\\n\"}")
                .redirectErrorStream(true).redirectOutput(watchOutput.toFile()).start();
        try {
            await().until(() -> server.openWatches() == 1);
            V1ConfigMap x = server.get(V1ConfigMap.class, "default", "x").orElseThrow();
            x.setData(Map.of("k", "v2"));
            server.update(x);
            await().atMost(COMMAND_TIMEOUT)
                    .until(() -> Files.readString(watchOutput).lines().toList().contains("v2"));
        } finally {
            watch.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(Files.readString(watchOutput).lines().toList()).containsSubsequence("v1", "v2");

        assertThat(run("delete", "configmap", "x")).contains("configmap \"x\" deleted");
        assertThat(server.get("", "configmaps", "default", "x")).isEmpty();
    }

    private String run(String... args) throws IOException, InterruptedException {
        Path stdout = Files.createTempFile(dir, "kubectl", ".out");
        Path stderr = Files.createTempFile(dir, "kubectl", ".err");
        Process process = command(args).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        if (!process.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            fail("kubectl " + String.join(" ", args) + " did not finish in " + COMMAND_TIMEOUT);
        }
        String err = Files.readString(stderr, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("kubectl %s failed: %s", String.join(" ", args), err).isZero();
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }

    private ProcessBuilder command(String... args) {
        List<String> command = new ArrayList<>(List.of(kubectl.toString(), "--kubeconfig", kubeconfig.toString(),
                "--cache-dir", dir.resolve("cache").toString()));
        command.addAll(Arrays.asList(args));
        return new ProcessBuilder(command);
    }

    private static Path findKubectl() {
        String path = System.getenv().getOrDefault("PATH", "");
        return Arrays.stream(path.split(File.pathSeparator))
                .map(entry -> Path.of(entry, "kubectl"))
                .filter(Files::isExecutable)
                .findFirst()
                .orElseGet(() -> fail("kubectl is not on PATH; install it (Debian: apt-get install kubernetes-client)"));
    }
}
