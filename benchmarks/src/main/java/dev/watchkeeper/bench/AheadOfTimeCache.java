package dev.watchkeeper.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The sample launched with the JDK's ahead-of-time cache (Java 25: classes loaded and linked ahead of time, and the
 * method profiles of a training run), in Spring AOT mode, as Spring Boot documents it for Java 24 and later: the jar
 * extracted, one training run with {@code -XX:AOTCacheOutput} that reconciles {@value #TRAINING_GENERATORS} new
 * generators and a spec change of them against the same API server and is then stopped with SIGTERM (the JVM writes
 * the cache as it exits), then every run with {@code -XX:AOTCache}. Unlike the class data sharing archive's, this
 * training run reconciles, so the profiles of the reconcile path are in the cache.
 *
 * @param jar      the extracted application jar to launch
 * @param jvmFlags the flags that use the cache
 */
record AheadOfTimeCache(Path jar, List<String> jvmFlags) {

    static final int TRAINING_GENERATORS = 500;

    private static final int USER_THREADS = 4;
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    /** Whether this JVM (and so the application's, launched from the same {@code java.home}) has the cache. */
    static boolean available() {
        return Runtime.version().feature() >= 25;
    }

    /** Extracts {@code bootJar} into {@code dir} and trains the cache there on {@code namespace}. */
    static AheadOfTimeCache prepare(Path bootJar, GeneratorApi api, Path kubeconfig, String namespace,
            List<String> jvmFlags, Path dir) throws Exception {
        Path jar = ClassDataSharing.extract(bootJar, dir);
        Path cache = dir.resolve("application.aot");
        api.createGenerators(namespace, TRAINING_GENERATORS, USER_THREADS);
        List<String> training = new ArrayList<>(jvmFlags);
        training.add("-XX:AOTCacheOutput=" + cache);
        try (Convergence convergence = Convergence.watch(api, namespace)) {
            SampleAppProcess app = SampleAppProcess.start(training, jar, kubeconfig, namespace, List.of(),
                    dir.resolve("training.log"));
            try {
                app.awaitReady(TIMEOUT);
                convergence.awaitAll(TRAINING_GENERATORS, 1, TIMEOUT.toMillis());
                GeneratorApi.forEach(GeneratorApi.names(TRAINING_GENERATORS), USER_THREADS,
                        name -> api.changeSpec(namespace, name, "trained"));
                convergence.awaitAll(TRAINING_GENERATORS, 2, TIMEOUT.toMillis());
            } finally {
                app.stop(TIMEOUT);
            }
        }
        return new AheadOfTimeCache(jar, ClassDataSharing.trainedFlags(jvmFlags, cache, "-XX:AOTCache=", dir));
    }
}
