package dev.watchkeeper.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The sample launched as Spring Boot documents for a quick start ("Class Data Sharing"): its jar extracted with
 * {@code java -Djarmode=tools -jar … extract}, one training run that stops once the context is refreshed
 * ({@code -Dspring.context.exit=onRefresh}) and writes the classes it loaded to an archive
 * ({@code -XX:ArchiveClassesAtExit}), then every run with {@code -XX:SharedArchiveFile}. The training run talks to
 * the same API server, so the classes of the watchers' first list are in the archive too. With Spring AOT
 * ({@code -Dspring.aot.enabled=true}, the sample's build runs {@code process-aot}) the training run and every run
 * use the generated bean definitions, as Boot documents for the two together.
 *
 * @param jar      the extracted application jar to launch
 * @param jvmFlags the flags that use the archive
 */
record ClassDataSharing(Path jar, List<String> jvmFlags) {

    /**
     * Extracts {@code bootJar} into {@code dir} and trains the archive there, with the cluster profile;
     * {@code jvmFlags} go to the training run and to every run (e.g. AOT mode).
     */
    static ClassDataSharing prepare(Path bootJar, Path kubeconfig, String namespace, Path dir, List<String> jvmFlags)
            throws Exception {
        Path jar = extract(bootJar, dir);
        Path archive = dir.resolve("application.jsa");
        List<String> training = new ArrayList<>(List.of(java()));
        training.addAll(StartupTime.CHILD_FLAGS);
        training.addAll(jvmFlags);
        training.addAll(List.of("-XX:ArchiveClassesAtExit=" + archive, "-Dspring.context.exit=onRefresh",
                "-jar", jar.toString(), "--spring.profiles.active=cluster", "--server.port=0",
                "--sample.namespace=" + namespace));
        run(training, kubeconfig, dir.resolve("training.log"));
        return new ClassDataSharing(jar, trainedFlags(jvmFlags, archive, "-XX:SharedArchiveFile=", dir));
    }

    /**
     * {@code jvmFlags} and {@code useFlag} naming {@code trained}, the file a training run in {@code dir} wrote;
     * fails with the training log's path when it wrote none.
     */
    static List<String> trainedFlags(List<String> jvmFlags, Path trained, String useFlag, Path dir) {
        if (!Files.isRegularFile(trained)) {
            throw new IllegalStateException("the training run wrote no " + trained + "; its log: "
                    + dir.resolve("training.log"));
        }
        List<String> flags = new ArrayList<>(jvmFlags);
        flags.add(useFlag + trained);
        return List.copyOf(flags);
    }

    /** {@code java -Djarmode=tools -jar bootJar extract} into {@code dir/extracted}; the jar to launch there. */
    static Path extract(Path bootJar, Path dir) throws Exception {
        Path extracted = dir.resolve("extracted");
        run(List.of(java(), "-Djarmode=tools", "-jar", bootJar.toString(), "extract", "--destination",
                extracted.toString()), null, dir.resolve("extract.log"));
        return extracted.resolve(bootJar.getFileName());
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void run(List<String> command, Path kubeconfig, Path log) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        if (kubeconfig != null) {
            builder.environment().put("KUBECONFIG", kubeconfig.toString());
        }
        Process process = builder.start();
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not end within 3 minutes");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue() + ":\n"
                    + tail(log));
        }
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }
}
