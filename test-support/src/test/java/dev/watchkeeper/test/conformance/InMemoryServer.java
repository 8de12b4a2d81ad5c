package dev.watchkeeper.test.conformance;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** The in-memory API server as a {@link ServerUnderTest}: one server per test class. */
final class InMemoryServer implements ServerUnderTest, AutoCloseable {

    /**
     * Without a watch cache for {@code podtemplates}, as the control plane is started; with shard selectors honoured
     * (the builder's default), unlike the control plane's main server, which has that gate off.
     */
    private final InMemoryApiServer server = InMemoryApiServer.builder().withoutWatchCache("podtemplates").build()
            .start();
    private final String namespace = "conformance";
    private InMemoryApiServer withoutWatchList;
    private InMemoryApiServer withoutShardSelectors;
    private Path kubectlDir;

    InMemoryServer() {
        createNamespace(server);
    }

    private void createNamespace(InMemoryApiServer target) {
        try {
            new CoreV1Api(target.apiClient()).createNamespace(
                    new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
        } catch (ApiException e) {
            throw new IllegalStateException(e.getResponseBody(), e);
        }
    }

    InMemoryApiServer server() {
        return server;
    }

    @Override
    public String name() {
        return "in-memory";
    }

    @Override
    public ApiClient apiClient() {
        return server.apiClient();
    }

    @Override
    public String namespace() {
        return namespace;
    }

    @Override
    public void compact() {
        server.compact();
    }

    @Override
    public ApiClient restrictedClient() {
        server.forbid("configmaps");
        return server.apiClient();
    }

    @Override
    public void grantConfigMaps() {
        server.allow("configmaps");
    }

    @Override
    public synchronized ApiClient withoutWatchList() {
        if (withoutWatchList == null) {
            withoutWatchList = InMemoryApiServer.builder().watchList(false).build().start();
            createNamespace(withoutWatchList);
        }
        return withoutWatchList.apiClient();
    }

    @Override
    public ApiClient withShardSelectors() {
        return server.apiClient();
    }

    @Override
    public synchronized ApiClient withoutShardSelectors() {
        if (withoutShardSelectors == null) {
            withoutShardSelectors = InMemoryApiServer.builder().shardSelectors(false).build().start();
            createNamespace(withoutShardSelectors);
        }
        return withoutShardSelectors.apiClient();
    }

    @Override
    public synchronized List<String> kubectl() {
        try {
            if (kubectlDir == null) {
                kubectlDir = Files.createTempDirectory("conformance-kubectl");
                server.writeKubeconfig(kubectlDir);
            }
            return List.of(KubeControlPlane.shared().kubectl().toString(), "--kubeconfig",
                    kubectlDir.resolve("kubeconfig").toString(), "--cache-dir", kubectlDir.resolve("cache").toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        if (withoutWatchList != null) {
            withoutWatchList.close();
        }
        if (withoutShardSelectors != null) {
            withoutShardSelectors.close();
        }
        if (kubectlDir != null) {
            try (Stream<Path> files = Files.walk(kubectlDir)) {
                for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }
}
