package dev.watchkeeper.test.conformance;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@code kubectl} (the one built with the control plane) as a process, against one server. */
final class Kubectl {

    private static final long TIMEOUT_SECONDS = 60;

    private final List<String> prefix;

    /** {@code prefix}: the kubectl binary and its kubeconfig flags. */
    Kubectl(List<String> prefix) {
        this.prefix = prefix;
    }

    /** Runs kubectl with {@code args}; returns its standard output and fails the test on a non-zero exit. */
    String run(String... args) throws IOException, InterruptedException {
        return runWithInput(null, args);
    }

    /** {@code kubectl apply -n namespace -f -} with {@code manifest} on standard input. */
    String apply(String namespace, String manifest) throws IOException, InterruptedException {
        return runWithInput(manifest, "apply", "-n", namespace, "-f", "-");
    }

    private String runWithInput(String stdin, String... args) throws IOException, InterruptedException {
        Path out = Files.createTempFile("kubectl", ".out");
        Path err = Files.createTempFile("kubectl", ".err");
        try {
            ProcessBuilder builder = command(args).redirectOutput(out.toFile()).redirectError(err.toFile());
            Path in = null;
            if (stdin != null) {
                in = Files.writeString(Files.createTempFile("kubectl", ".in"), stdin);
                builder.redirectInput(in.toFile());
            }
            Process process = builder.start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                fail("kubectl " + String.join(" ", args) + " did not finish in " + TIMEOUT_SECONDS + " s");
            }
            if (in != null) {
                Files.delete(in);
            }
            if (process.exitValue() != 0) {
                fail("kubectl " + String.join(" ", args) + " exited with " + process.exitValue() + ": "
                        + Files.readString(err, StandardCharsets.UTF_8));
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Starts a long-running kubectl (e.g. {@code get -w}); closing it stops the process. */
    Background start(String... args) throws IOException {
        Path out = Files.createTempFile("kubectl", ".out");
        Process process = command(args).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        return new Background(process, out);
    }

    private ProcessBuilder command(String... args) {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(args));
        return new ProcessBuilder(command);
    }

    /** A running kubectl whose output is read as it grows. */
    record Background(Process process, Path file) implements AutoCloseable {

        String output() {
            try {
                return Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() throws IOException, InterruptedException {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            Files.deleteIfExists(file);
        }
    }
}
