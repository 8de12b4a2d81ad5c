package dev.watchkeeper.sample.embedded;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A kubeconfig for the embedded API server, so {@code kubectl --kubeconfig <file>} can look at what the sample
 * does. It lives in a {@code watchkeeper-sample-*} directory of its own under the temp directory, which
 * {@link #close()} deletes when the application stops, so runs leave nothing behind.
 *
 * <pre>{@code
 * try (EmbeddedKubeconfig kubeconfig = EmbeddedKubeconfig.write(server)) {
 *     run("kubectl", "--kubeconfig", kubeconfig.file().toString(), "get", "configmaps");
 * }
 * }</pre>
 */
public final class EmbeddedKubeconfig implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKubeconfig.class);

    private final Path directory;
    private final Path file;

    private EmbeddedKubeconfig(Path directory, Path file) {
        this.directory = directory;
        this.file = file;
    }

    /** Writes {@code server}'s kubeconfig into a new temp directory. */
    public static EmbeddedKubeconfig write(InMemoryApiServer server) throws IOException {
        Path directory = Files.createTempDirectory("watchkeeper-sample-");
        return new EmbeddedKubeconfig(directory, server.writeKubeconfig(directory));
    }

    public Path file() {
        return file;
    }

    /** Deletes the kubeconfig and its directory. */
    @Override
    public void close() {
        try {
            Files.deleteIfExists(file);
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            log.warn("could not delete {}: {}", directory, e.toString());
        }
    }
}
