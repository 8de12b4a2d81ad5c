package dev.watchkeeper.test.controlplane;

import dev.watchkeeper.test.ExternalTool;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Kubernetes control plane (etcd, kube-apiserver, kube-controller-manager with the garbage collector and
 * the namespace controller) on loopback, started by the repository's {@code controlplane/start} script, which
 * builds it from Go modules the first time. One is started per JVM, on first use, and stopped when the JVM exits.
 *
 * <p>The script is found through the system property {@value #START_PROPERTY}, else the environment variable
 * {@value #START_VARIABLE}, else as {@code controlplane/start} in the working directory or one of its parents.
 */
public final class KubeControlPlane {

    /** System property naming the {@code controlplane/start} script. */
    public static final String START_PROPERTY = "watchkeeper.controlplane.start";
    /** Environment variable naming the {@code controlplane/start} script. */
    public static final String START_VARIABLE = "WATCHKEEPER_CONTROL_PLANE_START";

    private static final Logger log = LoggerFactory.getLogger(KubeControlPlane.class);
    /** A cold build of Kubernetes from Go modules takes 10-20 minutes on two cores. */
    private static final Duration START_TIMEOUT = Duration.ofMinutes(40);
    /** Exit code of {@code controlplane/build} when Go is not installed. */
    private static final int NO_GO = 3;

    private static final Map<List<String>, KubeControlPlane> started = new HashMap<>();
    private static final Map<List<String>, RuntimeException> failures = new HashMap<>();
    private static String unavailable;

    private final Path dir;
    private final Process process;

    private KubeControlPlane(Path dir, Process process) {
        this.dir = dir;
        this.process = process;
    }

    /**
     * The JVM's control plane, started on first call. When it cannot be had (no script, no Go) this throws
     * {@link ExternalTool#missing(String)}: a skip with the reason, or a failure in CI.
     */
    public static KubeControlPlane shared() {
        return shared(List.of());
    }

    /**
     * A second kind of control plane whose kube-apiserver also gets {@code apiServerFlags}, e.g.
     * {@code --feature-gates=WatchList=false}: one per distinct list of flags per JVM, started on first call.
     */
    public static synchronized KubeControlPlane shared(List<String> apiServerFlags) {
        KubeControlPlane plane = started.get(apiServerFlags);
        if (plane != null) {
            return plane;
        }
        if (failures.containsKey(apiServerFlags)) {
            throw new IllegalStateException("the control plane failed to start earlier in this JVM",
                    failures.get(apiServerFlags));
        }
        if (unavailable == null) {
            try {
                plane = start(apiServerFlags);
                started.put(List.copyOf(apiServerFlags), plane);
                return plane;
            } catch (Unavailable e) {
                unavailable = e.getMessage();
                log.warn("skipping the tests that need it: {}", unavailable);
            } catch (RuntimeException e) {
                failures.put(List.copyOf(apiServerFlags), e);
                throw e;
            }
        }
        throw ExternalTool.missing(unavailable);
    }

    /** The admin kubeconfig (group {@code system:masters}, the serving CA embedded). */
    public Path kubeconfig() {
        return dir.resolve("kubeconfig");
    }

    /** A kubeconfig whose token authenticates as {@code watchkeeper-unprivileged}, a user without RBAC rights. */
    public Path unprivilegedKubeconfig() {
        return dir.resolve("kubeconfig-unprivileged");
    }

    /** The user name behind {@link #unprivilegedKubeconfig()}, for RoleBindings. */
    public String unprivilegedUser() {
        return "watchkeeper-unprivileged";
    }

    /** The {@code kubectl} built from the same Kubernetes release. */
    public Path kubectl() {
        return dir.resolve("kubectl");
    }

    /** A client with admin rights and no read timeout, so watches stay open. */
    public ApiClient apiClient() {
        return client(kubeconfig());
    }

    /** A client authenticated as {@link #unprivilegedUser()}. */
    public ApiClient unprivilegedApiClient() {
        return client(unprivilegedKubeconfig());
    }

    /**
     * Compacts etcd to its current revision. Resources outside the API server's watch cache (here
     * {@code podtemplates}) then answer a watch from any older resourceVersion with 410 Gone; cached resources keep
     * serving from the watch cache, as on a real cluster.
     */
    public void compact() {
        run(List.of(dir.resolve("compact").toString()));
    }

    /** Runs the built {@code kubectl} with the admin kubeconfig; returns its standard output, fails on non-zero exit. */
    public String kubectl(String... args) {
        List<String> command = new ArrayList<>(List.of(kubectl().toString(), "--kubeconfig", kubeconfig().toString(),
                "--cache-dir", dir.resolve("kubectl-cache").toString()));
        command.addAll(List.of(args));
        return run(command);
    }

    private static ApiClient client(Path kubeconfig) {
        try (Reader reader = Files.newBufferedReader(kubeconfig)) {
            return ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(reader)).setReadTimeout(Duration.ZERO).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String run(List<String> command) {
        try {
            Path out = Files.createTempFile(dir, "command", ".out");
            Path err = Files.createTempFile(dir, "command", ".err");
            Process started = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            if (!started.waitFor(60, TimeUnit.SECONDS)) {
                started.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IllegalStateException(String.join(" ", command) + " did not finish within 60 s");
            }
            String stdout = Files.readString(out);
            String stderr = Files.readString(err);
            Files.delete(out);
            Files.delete(err);
            if (started.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + started.exitValue()
                        + ": " + stderr.strip());
            }
            return stdout;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command, e);
        }
    }

    private static KubeControlPlane start(List<String> apiServerFlags) throws Unavailable {
        Path script = findStartScript();
        try {
            Path dir = Files.createTempDirectory("watchkeeper-controlplane-");
            Path output = dir.resolve("start.log");
            long started = System.nanoTime();
            log.info("starting the control plane with {} (builds it first if needed; log {})", script, output);
            List<String> command = new ArrayList<>(List.of(script.toString(), dir.toString()));
            command.addAll(apiServerFlags);
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                    .start();
            KubeControlPlane plane = new KubeControlPlane(dir, process);
            Runtime.getRuntime().addShutdownHook(new Thread(plane::stop, "watchkeeper-controlplane-stop"));
            long deadline = started + START_TIMEOUT.toNanos();
            while (!Files.exists(plane.kubeconfig())) {
                if (!process.isAlive()) {
                    String log = Files.readString(output, StandardCharsets.UTF_8).strip();
                    if (process.exitValue() == NO_GO) {
                        plane.stop();
                        throw new Unavailable("no real control plane: " + lastLine(log)
                                + " (install Go 1.26 to run these tests)");
                    }
                    throw new IllegalStateException(script + " exited with " + process.exitValue() + ":\n" + log);
                }
                if (System.nanoTime() > deadline) {
                    plane.stop();
                    throw new IllegalStateException(script + " was not ready within " + START_TIMEOUT + "; see "
                            + output);
                }
                Thread.sleep(100);
            }
            log.info("control plane ready in {} s: {}", (System.nanoTime() - started) / 1_000_000_000L,
                    plane.kubeconfig());
            return plane;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + script, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the control plane", e);
        }
    }

    /** Closes the launcher's stdin, which stops every process and removes its data, then removes the directory. */
    private void stop() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroy();
                process.waitFor(15, TimeUnit.SECONDS);
            }
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        } catch (IOException e) {
            log.warn("could not remove {}", dir, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Path findStartScript() throws Unavailable {
        String configured = System.getProperty(START_PROPERTY, System.getenv(START_VARIABLE));
        if (configured != null && !configured.isBlank()) {
            Path script = Path.of(configured).toAbsolutePath();
            if (!Files.isExecutable(script)) {
                throw new Unavailable("no real control plane: " + script + " (from " + START_PROPERTY + " or "
                        + START_VARIABLE + ") is not an executable file");
            }
            return script;
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path script = dir.resolve("controlplane").resolve("start");
            if (Files.isExecutable(script)) {
                return script;
            }
        }
        throw new Unavailable("no real control plane: controlplane/start was not found above "
                + Path.of("").toAbsolutePath() + "; set " + START_VARIABLE);
    }

    private static String lastLine(String text) {
        String[] lines = text.split("\n");
        return lines[lines.length - 1];
    }

    /** The control plane cannot be had on this machine; the message says why. */
    private static final class Unavailable extends Exception {
        Unavailable(String message) {
            super(message);
        }
    }
}
