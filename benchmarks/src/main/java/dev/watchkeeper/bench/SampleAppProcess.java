package dev.watchkeeper.bench;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sample application (its Spring Boot jar, {@code sample-app/target/watchkeeper-sample-app.jar}) in a JVM of
 * its own with the {@code cluster} profile, pointed at a kubeconfig through {@code $KUBECONFIG} as on a developer's
 * machine, watching one namespace. Its actuator answers on a free loopback port; its log goes to a file.
 */
final class SampleAppProcess implements AutoCloseable {

    /** A directory: when set, each application JVM records a JFR profile there, named after its namespace. */
    static final String RECORDINGS_PROPERTY = "bench.endtoend.jfr";
    /** Flags added to each application JVM's, separated by spaces (e.g. to try a JIT setting). */
    static final String JVM_FLAGS_PROPERTY = "bench.endtoend.jvm-flags";

    private static final Pattern CACHES_SYNCED = Pattern.compile(
            "watchkeeper caches synced: .*\\(process running for ([0-9.]+) s\\)");
    /** G1's line: "total 262144K, used …" up to Java 21, "total reserved 262144K, committed …, used …" since. */
    private static final Pattern HEAP_USED = Pattern.compile(
            "garbage-first heap\\s+total [^,]*(?:, committed \\d+K)?, used (\\d+)K");

    private final Process process;
    private final int port;
    private final Path log;
    private final long startedAt;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private SampleAppProcess(Process process, int port, Path log, long startedAt) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.startedAt = startedAt;
    }

    /**
     * Starts the application; {@link #startedAt()} is the {@code nanoTime} just before the JVM is launched.
     *
     * @param properties extra {@code --name=value} arguments, e.g. the reconciler's concurrency
     */
    static SampleAppProcess start(Path jar, Path kubeconfig, String namespace, List<String> properties, Path log)
            throws IOException {
        return start(List.of(), jar, kubeconfig, namespace, properties, log);
    }

    /** {@link #start(Path, Path, String, List, Path)} with {@code jvmFlags} before {@code -jar}. */
    static SampleAppProcess start(List<String> jvmFlags, Path jar, Path kubeconfig, String namespace,
            List<String> properties, Path log) throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        command.addAll(StartupTime.CHILD_FLAGS);
        command.addAll(extraJvmFlags());
        command.addAll(jvmFlags);
        String recordings = System.getProperty(RECORDINGS_PROPERTY);
        if (recordings != null) {
            command.add("-XX:StartFlightRecording=settings=profile,filename="
                    + Path.of(recordings).resolve(namespace + ".jfr").toAbsolutePath());
        }
        command.addAll(List.of("-jar", jar.toString(), "--spring.profiles.active=cluster",
                "--server.address=127.0.0.1", "--server.port=" + port, "--sample.namespace=" + namespace));
        command.addAll(properties);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("KUBECONFIG", kubeconfig.toString());
        long startedAt = System.nanoTime();
        return new SampleAppProcess(builder.start(), port, log, startedAt);
    }

    /** The flags of {@value #JVM_FLAGS_PROPERTY}, none when it is not set. */
    static List<String> extraJvmFlags() {
        String flags = System.getProperty(JVM_FLAGS_PROPERTY, "").trim();
        return flags.isEmpty() ? List.of() : List.of(flags.split("\\s+"));
    }

    long startedAt() {
        return startedAt;
    }

    long pid() {
        return process.pid();
    }

    /**
     * Polls {@code /actuator/health/readiness} every 5 ms until it answers 200 UP: Watchkeeper's readiness
     * indicator is UP once every watcher's first sync is done, and the group also holds Boot's readiness state,
     * which turns ACCEPTING_TRAFFIC once {@code run()} has returned. Returns the {@code nanoTime} of that answer.
     */
    long awaitReady(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the sample application exited with " + process.exitValue()
                        + "; its log: " + log + "\n" + tail());
            }
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri("/actuator/health/readiness"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return System.nanoTime();
                }
            } catch (ConnectException e) {
                // not listening yet
            }
            Thread.sleep(5);
        }
        throw new IllegalStateException("the sample application was not ready within " + timeout + "; its log: "
                + log + "\n" + tail());
    }

    /** The reconciler's entry of {@code /actuator/watchkeeper}. */
    JsonObject reconciler(String name) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri("/actuator/watchkeeper")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("/actuator/watchkeeper answered " + response.statusCode());
        }
        for (var element : JsonParser.parseString(response.body()).getAsJsonObject().getAsJsonArray("reconcilers")) {
            JsonObject reconciler = element.getAsJsonObject();
            if (name.equals(reconciler.get("name").getAsString())) {
                return reconciler;
            }
        }
        throw new IllegalStateException("/actuator/watchkeeper shows no reconciler " + name);
    }

    /**
     * Waits until the reconciler has nothing queued, scheduled or running and its reconcile count has not moved
     * for {@code still}; returns its entry then.
     */
    JsonObject awaitIdle(String name, Duration still, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        long count = -1;
        long since = System.nanoTime();
        while (System.nanoTime() < deadline) {
            JsonObject reconciler = reconciler(name);
            long now = reconciler.getAsJsonObject("counts").get("reconciles").getAsLong();
            boolean idle = reconciler.get("queueDepth").getAsInt() == 0 && reconciler.get("scheduled").getAsInt() == 0
                    && reconciler.get("inFlight").getAsInt() == 0;
            if (!idle || now != count) {
                count = now;
                since = System.nanoTime();
            } else if (System.nanoTime() - since >= still.toNanos()) {
                return reconciler;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("reconciler " + name + " did not fall idle within " + timeout);
    }

    /** The used heap right after a full GC ({@code jcmd GC.run}, then {@code GC.heap_info}), in bytes. */
    long heapAfterGc() throws Exception {
        jcmd("GC.run");
        Matcher used = HEAP_USED.matcher(jcmd("GC.heap_info"));
        if (!used.find()) {
            throw new IllegalStateException("jcmd GC.heap_info printed no G1 heap line");
        }
        return Long.parseLong(used.group(1)) * 1024;
    }

    /** Runs {@code jcmd <pid> args…}; its output. */
    String jcmd(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd")
                .toString(), Long.toString(process.pid())));
        command.addAll(List.of(args));
        Process jcmd = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!jcmd.waitFor(60, TimeUnit.SECONDS) || jcmd.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    /**
     * Waits for Watchkeeper's {@code caches synced: … (process running for X s)} line and returns X in
     * milliseconds: how long after the JVM started every watcher's first list was in its store.
     */
    double awaitCachesSynced(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (String line : Files.readAllLines(log)) {
                Matcher synced = CACHES_SYNCED.matcher(line);
                if (synced.find()) {
                    return Double.parseDouble(synced.group(1)) * 1000;
                }
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the sample application logged no 'caches synced' line within " + timeout
                + "; its log: " + log + "\n" + tail());
    }

    /** The JVM's own "Started … (process running for …)" line, if it printed one. */
    String startedLine() throws IOException {
        return Files.readAllLines(log).stream().filter(line -> line.contains("Started SampleApplication"))
                .map(line -> line.substring(line.indexOf("Started SampleApplication"))).findFirst().orElse("–");
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private String tail() throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    /** SIGTERM, as Kubernetes stops a pod; forcibly after 30 s. */
    @Override
    public void close() throws InterruptedException {
        stop(Duration.ofSeconds(30));
    }

    /** SIGTERM; forcibly when the JVM has not exited within {@code timeout}. */
    void stop(Duration timeout) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
