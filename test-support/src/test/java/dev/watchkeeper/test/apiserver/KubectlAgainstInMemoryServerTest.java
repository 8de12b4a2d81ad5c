package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The real kubectl (v1.37.2, built with the control plane) against the in-memory server, never with
 * {@code --validate=false}: it reads the server's OpenAPI v3, validates on the server ({@code fieldValidation}),
 * applies with strategic merge patches, edits, and creates from literals in protobuf.
 */
class KubectlAgainstInMemoryServerTest {

    private static final long TIMEOUT_SECONDS = 60;
    private static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
              finalizers: [example.com/a]
            spec:
              replicas: 2
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
                spec:
                  containers:
                  - name: a
                    image: nginx:1
                    ports: [{containerPort: 80}]
                    env: [{name: "X", value: "1"}]
                  - name: b
                    image: busybox
            """;

    private static Path kubectl;

    @TempDir
    Path dir;

    private InMemoryApiServer server;
    private Path kubeconfig;

    @BeforeAll
    static void findKubectl() {
        kubectl = KubeControlPlane.shared().kubectl();
    }

    @BeforeEach
    void start() throws IOException {
        server = new InMemoryApiServer().start();
        kubeconfig = server.writeKubeconfig(dir);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void applyCreatesThenPatchesAnExistingObject() throws Exception {
        assertThat(ok("apply", "-f", manifest("cm.yaml", configMap("x", "k: v1")))).contains("configmap/x created");
        assertThat(ok("apply", "-f", manifest("cm.yaml", configMap("x", "k: v2\n  extra: e"))))
                .contains("configmap/x configured");

        JsonObject x = json(ok("get", "configmap", "x", "-o", "json"));
        assertThat(x.getAsJsonObject("data").entrySet()).extracting(Map.Entry::getKey)
                .containsExactlyInAnyOrder("k", "extra");
        assertThat(x.getAsJsonObject("data").get("k").getAsString()).isEqualTo("v2");
        assertThat(x.getAsJsonObject("metadata").getAsJsonObject("annotations")
                .has("kubectl.kubernetes.io/last-applied-configuration")).isTrue();
        assertThat(server.requests("configmaps")).filteredOn(r -> r.method().equals("PATCH")).singleElement()
                .satisfies(patch -> assertThat(patch.query()).contains("fieldValidation=Strict"));
    }

    @Test
    void applyOfAChangedDeploymentKeepsEveryOtherContainerField() throws Exception {
        ok("apply", "-f", manifest("web.yaml", DEPLOYMENT));
        ok("apply", "-f", manifest("web.yaml", DEPLOYMENT.replace("nginx:1", "nginx:2")));

        JsonObject containers = json(ok("get", "deployment", "web", "-o",
                "jsonpath={.spec.template.spec.containers[0]}"));
        assertThat(containers.get("image").getAsString()).isEqualTo("nginx:2");
        assertThat(containers.has("env")).isTrue();
        assertThat(containers.has("ports")).isTrue();
        assertThat(ok("get", "deployment", "web", "-o", "jsonpath={.spec.template.spec.containers[*].name}"))
                .isEqualTo("a b");
    }

    @Test
    void createValidatesFieldsOnTheServer() throws Exception {
        String manifest = manifest("bad.yaml", configMap("bad", "k: v1")
                .replace("metadata:", "foo: bar\nmetadata:\n  bogus: 1"));

        Result strict = run("create", "-f", manifest);
        assertThat(strict.exitCode()).isNotZero();
        assertThat(strict.stderr()).contains("Error from server (BadRequest): error when creating \"" + manifest
                + "\": ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: "
                + "unknown field \"foo\", unknown field \"metadata.bogus\"");
        assertThat(server.get("", "configmaps", "default", "bad")).isEmpty();

        Result warn = run("create", "--validate=warn", "-f", manifest);
        assertThat(warn.exitCode()).isZero();
        assertThat(warn.stderr()).contains("Warning: unknown field \"foo\"", "Warning: unknown field \"metadata.bogus\"");
        assertThat(server.get("", "configmaps", "default", "bad").orElseThrow().has("foo"))
                .as("unknown fields are dropped, as the real server's decoding drops them").isFalse();
    }

    @Test
    void createFromAFileCreates() throws Exception {
        assertThat(ok("create", "-f", manifest("web.yaml", DEPLOYMENT))).contains("deployment.apps/web created");
        assertThat(server.get("apps", "deployments", "default", "web")).isPresent();
    }

    @Test
    void editSendsAStrategicMergePatchWithListDirectives() throws Exception {
        ok("create", "-f", manifest("web.yaml", DEPLOYMENT));
        Path editor = Files.writeString(dir.resolve("editor.sh"),
                "#!/bin/sh\nsed -i 's/image: nginx:1/image: nginx:3/; s/- example.com\\/a/- example.com\\/b/' \"$1\"\n");
        Files.setPosixFilePermissions(editor, PosixFilePermissions.fromString("rwx------"));

        Result edit = run(Map.of("EDITOR", editor.toString()), "edit", "deployment", "web");

        assertThat(edit.exitCode()).as(edit.stderr()).isZero();
        assertThat(edit.stdout()).contains("deployment.apps/web edited");
        JsonObject web = server.get("apps", "deployments", "default", "web").orElseThrow();
        assertThat(web.getAsJsonObject("metadata").getAsJsonArray("finalizers").toString())
                .isEqualTo("[\"example.com/b\"]");
        JsonObject first = web.getAsJsonObject("spec").getAsJsonObject("template").getAsJsonObject("spec")
                .getAsJsonArray("containers").get(0).getAsJsonObject();
        assertThat(first.get("image").getAsString()).isEqualTo("nginx:3");
        assertThat(first.has("env")).as("the element merged by name keeps its other fields").isTrue();
    }

    @Test
    void createConfigMapFromLiteralIsSentInProtobufAndAnsweredInJson() throws Exception {
        assertThat(ok("create", "configmap", "lit", "--from-literal=k=v")).contains("configmap/lit created");

        JsonObject lit = json(ok("get", "configmap", "lit", "-o", "json"));
        assertThat(lit.getAsJsonObject("data").toString()).isEqualTo("{\"k\":\"v\"}");
        assertThat(lit.getAsJsonObject("metadata").get("name").getAsString()).isEqualTo("lit");
    }

    @Test
    void customResourcesApplyWithMergePatchesAndStrictFields() throws Exception {
        ok("apply", "-f", manifest("crd.yaml", """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata:
                  name: widgets.example.com
                spec:
                  group: example.com
                  scope: Namespaced
                  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec:
                            type: object
                            properties:
                              size: {type: integer}
                """));
        String widget = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 1%s}\n";

        Result unknown = run("apply", "-f", manifest("w.yaml", widget.formatted(", color: red")));
        assertThat(unknown.stderr()).contains("Widget in version \"v1\" cannot be handled as a Widget: strict decoding"
                + " error: unknown field \"spec.color\"");
        ok("apply", "-f", manifest("w.yaml", widget.formatted("")));
        ok("apply", "-f", manifest("w.yaml", widget.formatted("").replace("size: 1", "size: 2")));

        assertThat(ok("get", "widget", "w", "-o", "jsonpath={.spec.size}")).isEqualTo("2");
    }

    @Test
    void deleteRemovesWhatApplyCreated() throws Exception {
        String manifest = manifest("cm.yaml", configMap("gone", "k: v"));
        ok("apply", "-f", manifest);

        assertThat(ok("delete", "-f", manifest)).contains("configmap \"gone\" deleted");
        assertThat(server.get("", "configmaps", "default", "gone")).isEmpty();
    }

    @Test
    void openApiIndexListsADocumentPerGroupVersion() throws Exception {
        JsonObject paths = json(ok("get", "--raw", "/openapi/v3")).getAsJsonObject("paths");
        assertThat(paths.keySet()).contains("api/v1", "apis/apps/v1", "apis/apiextensions.k8s.io/v1");
        assertThat(paths.getAsJsonObject("api/v1").get("serverRelativeURL").getAsString())
                .matches("/openapi/v3/api/v1\\?hash=[0-9A-F]{128}");

        JsonObject core = json(ok("get", "--raw", "/openapi/v3/api/v1"));
        JsonObject patch = core.getAsJsonObject("paths")
                .getAsJsonObject("/api/v1/namespaces/{namespace}/configmaps/{name}").getAsJsonObject("patch");
        assertThat(patch.getAsJsonObject("x-kubernetes-group-version-kind").get("kind").getAsString())
                .isEqualTo("ConfigMap");
        assertThat(patch.getAsJsonArray("parameters").toString()).contains("\"name\":\"fieldValidation\"");
        assertThat(patch.getAsJsonObject("requestBody").getAsJsonObject("content").keySet())
                .contains("application/strategic-merge-patch+json");
    }

    private static String configMap(String name, String data) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  " + data + "\n";
    }

    private String manifest(String file, String yaml) throws IOException {
        return Files.writeString(dir.resolve(file), yaml).toString();
    }

    private static JsonObject json(String text) {
        return JsonParser.parseString(text).getAsJsonObject();
    }

    /** Runs kubectl and fails the test unless it exits with 0; returns its standard output. */
    private String ok(String... args) throws IOException, InterruptedException {
        Result result = run(args);
        assertThat(result.exitCode()).as("kubectl %s: %s", String.join(" ", args), result.stderr()).isZero();
        return result.stdout();
    }

    private Result run(String... args) throws IOException, InterruptedException {
        return run(Map.of(), args);
    }

    private Result run(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(kubectl.toString(), "--kubeconfig", kubeconfig.toString(),
                "--cache-dir", dir.resolve("cache").toString()));
        command.addAll(Arrays.asList(args));
        Path out = Files.createTempFile(dir, "kubectl", ".out");
        Path err = Files.createTempFile(dir, "kubectl", ".err");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            fail("kubectl " + String.join(" ", args) + " did not finish in " + TIMEOUT_SECONDS + " s");
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private record Result(int exitCode, String stdout, String stderr) {
    }
}
