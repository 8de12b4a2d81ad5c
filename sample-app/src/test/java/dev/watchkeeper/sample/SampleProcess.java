package dev.watchkeeper.sample;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The sample application as a process of its own on a free port, its output in a temporary file: started, read over
 * HTTP, stopped with the end of its log printed.
 */
final class SampleProcess implements AutoCloseable {

    /** On this JVM's class path, in JVM mode. */
    static final List<String> CLASS_PATH = List.of(java(), "-cp", System.getProperty("java.class.path"),
            SampleApplication.class.getName());

    /** The jar {@code package} built, in AOT mode: the generated bean definitions instead of the configuration. */
    static final List<String> AOT_JAR = List.of(java(), "-Dspring.aot.enabled=true", "-jar",
            Path.of("target", "watchkeeper-sample-app.jar").toString());

    private final Process process;
    private final Path log;
    private final int port;

    private SampleProcess(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /** Starts {@code launcher} with {@code arguments} and the server port, and waits until it is ready. */
    static SampleProcess start(List<String> launcher, List<String> arguments, Map<String, String> environment,
            Duration wait) throws IOException {
        int port = freePort();
        Path log = Files.createTempFile("sample-app", ".log");
        List<String> command = new ArrayList<>(launcher);
        command.addAll(arguments);
        command.add("--server.port=" + port);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        SampleProcess sample = new SampleProcess(builder.start(), log, port);
        try {
            await().atMost(wait).pollInterval(Duration.ofMillis(500))
                    .until(() -> sample.status("/actuator/health/readiness") == 200);
            return sample;
        } catch (RuntimeException notReady) {
            try {
                sample.close(); // prints its log, which says why
            } catch (Exception stopping) {
                notReady.addSuppressed(stopping);
            }
            throw notReady;
        }
    }

    /** The status of a GET of {@code path}, -1 when nothing answers; fails if the process has exited. */
    int status(String path) throws InterruptedException {
        try {
            return get(path, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        }
    }

    /** The body of a GET of {@code path}. */
    String body(String path) throws IOException, InterruptedException {
        return get(path, HttpResponse.BodyHandlers.ofString()).body();
    }

    String log() throws IOException {
        return Files.readString(log);
    }

    private <T> HttpResponse<T> get(String path, HttpResponse.BodyHandler<T> body)
            throws IOException, InterruptedException {
        if (!process.isAlive()) {
            throw new IllegalStateException("the sample app exited with " + process.exitValue() + ":\n" + tail());
        }
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).build(), body);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        process.waitFor(30, TimeUnit.SECONDS);
        System.out.println("sample app log (last 40 lines):\n" + tail());
        Files.delete(log);
    }

    private String tail() throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }
}
