package dev.watchkeeper.test.watch;

import static org.awaitility.Awaitility.await;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The in-memory API server in a process of its own, for a test that measures its own heap and threads: the server's
 * side of every connection (the JDK's HTTP server keeps closed ones for a while) is then not counted. The process
 * serves {@code objects} ConfigMaps in namespace {@code default} until its standard input closes.
 *
 * <pre>{@code
 * try (ServerProcess server = ServerProcess.start(3)) {
 *     ApiClient client = server.apiClient();
 * }
 * }</pre>
 */
final class ServerProcess implements AutoCloseable {

    private static final String URL_LINE = "in-memory API server at ";

    private final Process process;
    private final String url;

    private ServerProcess(Process process, String url) {
        this.process = process;
        this.url = url;
    }

    /** Starts the process and waits until it serves. */
    static ServerProcess start(int objects) throws IOException {
        Path output = Files.createTempFile("server-process", ".log");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ServerProcess.class.getName(), Integer.toString(objects))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            String url = await("the server process's URL line").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50)).until(() -> urlLine(output, process), Objects::nonNull);
            return new ServerProcess(process, url);
        } catch (RuntimeException e) { // not started in time, ended, or its output unreadable
            process.destroyForcibly();
            throw new IllegalStateException("the server process did not start: " + Files.readString(output), e);
        }
    }

    /** The URL the child printed, or {@code null} while it has not; fails once the child ended without one. */
    private static String urlLine(Path output, Process process) throws IOException {
        boolean ended = !process.isAlive(); // read before the file, so a line printed just before the end counts
        for (String line : Files.readAllLines(output)) {
            if (line.startsWith(URL_LINE)) {
                return line.substring(URL_LINE.length()).trim();
            }
        }
        if (ended) {
            throw new IllegalStateException("the server process ended with code " + process.exitValue());
        }
        return null;
    }

    String url() {
        return url;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
        }
    }

    public static void main(String[] args) throws IOException {
        try (InMemoryApiServer server = new InMemoryApiServer().start()) {
            for (int i = 0; i < Integer.parseInt(args[0]); i++) {
                server.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name("cm-" + i)));
            }
            System.out.println(URL_LINE + server.url());
            System.out.flush();
            while (System.in.read() != -1) {
                // serve until the parent closes our input
            }
        }
    }
}
