package dev.watchkeeper.bench;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.opentest4j.TestAbortedException;

/**
 * Scenario 7: what an operator author sees. The sample application (its Spring Boot jar, a fresh JVM per run) runs
 * its {@code ConfigMapGenerator} reconciler against the real control plane ({@code controlplane/}) over N generators
 * that exist before it starts, then over a spec change of all N; at the reconciler's default concurrency, launched
 * with {@code java -jar} and as Spring Boot documents for a quick start ({@link ClassDataSharing}).
 * Beside each run, the floor ({@link FloorController}): a bare client sending the same writes at the same
 * concurrency. Convergence is read from the server ({@link Convergence}), requests and 409s from the server's
 * {@code /metrics} ({@link RequestCounts}), reconciles from the application's {@code /actuator/watchkeeper}, heap
 * after a full GC through {@code jcmd}.
 */
final class EndToEnd {

    /** The goals. */
    private static final double GOAL_FLOOR_RATIO = 1.2;
    private static final double GOAL_RECONCILES_PER_NEW = 3;
    private static final long GOAL_SYNCED_MILLIS = 2_500;

    /** Threads the harness's "user" creates and changes generators on, for the application and the floor alike. */
    private static final int USER_THREADS = 4;
    /**
     * Spec changes of all N in a row, for the application and the floor alike: the first finds a JVM that has just
     * started; the others, each paired with the floor's, find it warmed up by the ones before.
     */
    private static final int SPEC_ROUNDS = 5;
    /** Spring AOT's generated bean definitions instead of configuration classes parsed at start-up. */
    private static final String AOT_MODE = "-Dspring.aot.enabled=true";
    /** The launches to run, by label: {@code jar}, {@code cds}, {@code aot}, {@code aotcache}. */
    static final String LAUNCHES_PROPERTY = "bench.endtoend.launches";
    private static final Duration CONVERGE_TIMEOUT = Duration.ofMinutes(10);
    private static final String CRD = "configmapgenerators." + GeneratorApi.GROUP;

    private final List<Integer> sizes;
    private final Path sampleJar;
    private final Path crd;

    EndToEnd(List<Integer> sizes, Path sampleApp) {
        this.sizes = sizes;
        this.sampleJar = sampleApp.resolve("target/watchkeeper-sample-app.jar");
        this.crd = sampleApp.resolve("deploy/01-crd.yaml");
    }

    void run() throws Exception {
        if (!Files.isRegularFile(sampleJar) || !Files.isRegularFile(crd)) {
            System.out.printf("%nScenario 7 (end to end) skipped: no %s or %s; build the sample with "
                    + "./mvnw -pl sample-app -am package -DskipTests, or name its directory with "
                    + "-Dbench.sample.dir=…%n", sampleJar, crd);
            return;
        }
        KubeControlPlane plane;
        try {
            plane = KubeControlPlane.shared();
        } catch (TestAbortedException e) {
            System.out.printf("%nScenario 7 (end to end) skipped: %s%n", e.getMessage());
            return;
        }
        plane.kubectl("apply", "-f", crd.toString());
        plane.kubectl("wait", "--for=condition=Established", "crd/" + CRD, "--timeout=60s");
        GeneratorApi api = new GeneratorApi(plane.apiClient());
        awaitGarbageCollectorWatching(api);
        Path logs = Files.createTempDirectory("watchkeeper-endtoend-");
        Progress.say("scenario 7: sizes %s; the sample's reconciler at its default concurrency, launched as %s"
                + " (-D%s); application logs in %s", sizes, System.getProperty(LAUNCHES_PROPERTY,
                "jar,cds,aot,aotcache (on Java 25 or later)"), LAUNCHES_PROPERTY, logs);
        List<Launch> launches = launches(plane, api, logs);
        List<Result> results = new ArrayList<>();
        for (int n : sizes) {
            for (Launch launch : launches) {
                results.add(run(plane, api, n, launch, logs));
            }
        }
        print(results);
    }

    /**
     * The launches of {@value #LAUNCHES_PROPERTY} (labels, comma-separated), all by default: the Boot jar as built,
     * with class data sharing, with Spring AOT and class data sharing, and on Java 25 or later with Spring AOT and the
     * JDK's ahead-of-time cache. Each archive or cache is trained here.
     */
    private List<Launch> launches(KubeControlPlane plane, GeneratorApi api, Path logs) throws Exception {
        List<String> labels = List.of(System.getProperty(LAUNCHES_PROPERTY, "jar,cds,aot,aotcache").split(","));
        List<Launch> launches = new ArrayList<>();
        if (labels.contains("jar")) {
            launches.add(new Launch("java -jar", "jar", List.of(), sampleJar));
        }
        if (labels.contains("cds") || labels.contains("aot")) {
            plane.kubectl("create", "namespace", "e2e-training");
        }
        if (labels.contains("cds")) {
            ClassDataSharing cds = ClassDataSharing.prepare(sampleJar, plane.kubeconfig(), "e2e-training",
                    Files.createDirectories(logs.resolve("cds")), List.of());
            launches.add(new Launch("CDS", "cds", cds.jvmFlags(), cds.jar()));
        }
        if (labels.contains("aot")) {
            ClassDataSharing aot = ClassDataSharing.prepare(sampleJar, plane.kubeconfig(), "e2e-training",
                    Files.createDirectories(logs.resolve("aot")), List.of(AOT_MODE));
            launches.add(new Launch("AOT + CDS", "aot", aot.jvmFlags(), aot.jar()));
        }
        if (labels.contains("aotcache") && AheadOfTimeCache.available()) {
            AheadOfTimeCache cache = AheadOfTimeCache.prepare(sampleJar, api, plane.kubeconfig(), "e2e-aot-training",
                    List.of(AOT_MODE), Files.createDirectories(logs.resolve("aotcache")));
            launches.add(new Launch("AOT cache", "aotcache", cache.jvmFlags(), cache.jar()));
        }
        return launches;
    }

    /**
     * How the application's JVM is launched: a name for the tables, a label for its namespaces, flags before
     * {@code -jar}, the jar.
     */
    private record Launch(String name, String namespaceLabel, List<String> jvmFlags, Path jar) {
    }

    /**
     * One size, launched one way, at the default concurrency: the application's new generators and first spec
     * change, the floor's; then the warm rounds, the application's and the floor's taking turns so that both meet
     * the same machine.
     */
    private Result run(KubeControlPlane plane, GeneratorApi api, int n, Launch launch, Path logs)
            throws Exception {
        String label = launch.namespaceLabel();
        String namespace = "e2e-" + n + "-" + label;
        String floorNamespace = "floor-" + n + "-" + label;
        ApiClient client = api.client();
        List<String> names = GeneratorApi.names(n);
        api.createGenerators(namespace, n, USER_THREADS);
        Result.Builder result = new Result.Builder(n, launch.name());
        ProcessHandle harness = ProcessHandle.current();
        // The harness watches the floor's namespace as it watches the application's, so the server serves the same
        // two watches of the harness during both.
        try (Convergence convergence = Convergence.watch(api, namespace)) {
            RequestCounts before = RequestCounts.scrape(client);
            try (SampleAppProcess app = SampleAppProcess.start(launch.jvmFlags(), launch.jar(), plane.kubeconfig(),
                    namespace, List.of(), logs.resolve(namespace + ".log"))) {
                ProcessHandle process = ProcessHandle.of(app.pid()).orElseThrow();
                long ready = app.awaitReady(Duration.ofMinutes(2));
                CpuTime atReady = CpuTime.of(process);
                result.cachesSynced = app.awaitCachesSynced(Duration.ofSeconds(30));
                long created = convergence.awaitAll(n, 1, CONVERGE_TIMEOUT.toMillis());
                result.cpuNew = CpuTime.of(process).since(atReady);
                JsonObject idle = app.awaitIdle(GeneratorApi.RECONCILER, Duration.ofSeconds(1), CONVERGE_TIMEOUT);
                RequestCounts afterNew = RequestCounts.scrape(client);
                result.concurrency = idle.get("concurrency").getAsInt();
                result.startedLine = app.startedLine();
                result.synced = (ready - app.startedAt()) / 1e6;
                result.allReconciled = (created - app.startedAt()) / 1e6;
                result.syncedToReconciled = (created - ready) / 1e6;
                long reconcilesNew = idle.getAsJsonObject("counts").get("reconciles").getAsLong();
                result.reconcilesNew = reconcilesNew / (double) n;
                result.requestsNew = afterNew.minus(before);
                Progress.say("  N=%,d %s (concurrency %d): caches synced %,.0f ms, ready %,.0f ms, all reconciled"
                        + " %,.0f ms after start", n, launch.name(), result.concurrency, result.cachesSynced,
                        result.synced, result.allReconciled);

                long changeStart = System.nanoTime();
                Round first = specChange(api, convergence, process, namespace, names, 1);
                result.userPatches = first.userPatches;
                result.specConverged = first.millis;
                result.cpuSpec = first.cpu;
                idle = app.awaitIdle(GeneratorApi.RECONCILER, Duration.ofSeconds(1), CONVERGE_TIMEOUT);
                RequestCounts afterSpec = RequestCounts.scrape(client);
                result.reconcilesSpec = (idle.getAsJsonObject("counts").get("reconciles").getAsLong() - reconcilesNew)
                        / (double) n;
                result.requestsSpec = afterSpec.minus(afterNew).without("PATCH", GeneratorApi.PLURAL, n);
                Progress.say("  N=%,d %s: spec change converged %,.0f ms after the first patch", n, label,
                        (System.nanoTime() - changeStart) / 1e6);

                api.createGenerators(floorNamespace, n, USER_THREADS);
                FloorController floor = new FloorController(api, result.concurrency);
                try (Convergence same = Convergence.watch(api, floorNamespace)) {
                    List<JsonObject> generators = api.listGenerators(floorNamespace);
                    CpuTime start = CpuTime.of(harness);
                    result.floorNew = floor.reconcileNew(generators) / 1e6;
                    result.floorCpuNew = CpuTime.of(harness).since(start);
                    Round floorFirst = floorSpecChange(floor, harness, floorNamespace, names, specValue(1));
                    result.floorSpec = floorFirst.millis;
                    result.floorCpuSpec = floorFirst.cpu;
                    Progress.say("  N=%,d %s floor: new %,.0f ms, spec change %,.0f ms", n, label, result.floorNew,
                            result.floorSpec);
                    String freshNamespace = "fresh-" + n + "-" + label;
                    api.createGenerators(freshNamespace, n, USER_THREADS);
                    CpuTime planeBefore = CpuTime.of(harness);
                    long[] fresh = FloorChild.run(plane.kubeconfig(), freshNamespace, result.concurrency);
                    result.floorFreshNew = fresh[0] / 1e6;
                    result.floorFreshCpu = new CpuTime(fresh[1], CpuTime.of(harness).since(planeBefore)
                            .controlPlaneNanos(), fresh[2]);
                    Progress.say("  N=%,d %s floor in a fresh JVM: new %,.0f ms", n, label, result.floorFreshNew);
                    for (int round = 2; round <= SPEC_ROUNDS; round++) {
                        Round ours = specChange(api, convergence, process, namespace, names, round);
                        app.awaitIdle(GeneratorApi.RECONCILER, Duration.ofSeconds(1), CONVERGE_TIMEOUT);
                        Round watched;
                        try (Convergence controllers = Convergence.watch(api, floorNamespace)) {
                            watched = floorSpecChange(floor, harness, floorNamespace, names, "w" + round);
                        }
                        Round floors = floorSpecChange(floor, harness, floorNamespace, names, specValue(round));
                        result.warm.add(new WarmRound(ours, floors, watched));
                        Progress.say("  N=%,d %s round %d: %,.0f ms, floor %,.0f ms (%.2f×), floor watching %,.0f ms",
                                n, label, round, ours.millis, floors.millis, ours.millis / floors.millis,
                                watched.millis);
                    }
                }
                result.heap = app.heapAfterGc();
                Progress.say("  N=%,d %s: heap after GC %s", n, label, Table.mb(result.heap));
            }
        }
        sameWrites(api, namespace, floorNamespace);
        return result.build();
    }

    /** One spec change of all N: its time, the user's patches' share of it, and the CPU it cost. */
    private record Round(double millis, double userPatches, CpuTime cpu) {
    }

    /**
     * A warm round of the application, then the floor's with two more watches of its namespace open, as a controller
     * has (the server sends every write's event once more), then the floor's.
     */
    private record WarmRound(Round application, Round floor, Round floorWatching) {

        double ratio() {
            return application.millis / floor.millis;
        }
    }

    /** The user patches every generator's spec to the value of {@code round}; until all converged. */
    private static Round specChange(GeneratorApi api, Convergence convergence, ProcessHandle application,
            String namespace, List<String> names, int round) throws Exception {
        CpuTime before = CpuTime.of(application);
        long start = System.nanoTime();
        GeneratorApi.forEach(names, USER_THREADS, name -> api.changeSpec(namespace, name, specValue(round)));
        double patches = (System.nanoTime() - start) / 1e6;
        long converged = convergence.awaitAll(names.size(), round + 1, CONVERGE_TIMEOUT.toMillis());
        return new Round((converged - start) / 1e6, patches, CpuTime.of(application).since(before));
    }

    private static Round floorSpecChange(FloorController floor, ProcessHandle harness, String namespace,
            List<String> names, String value) throws Exception {
        CpuTime before = CpuTime.of(harness);
        double millis = floor.reconcileSpecChange(namespace, names, USER_THREADS, value) / 1e6;
        return new Round(millis, 0, CpuTime.of(harness).since(before));
    }

    /** spec.content's value in round {@code round}: generation {@code round + 1}. */
    private static String specValue(int round) {
        return "v" + (round + 1);
    }

    /**
     * Waits until kube-controller-manager's garbage collector watches the new resource. It learns of new resources
     * on a 30 s discovery sync; the owned ConfigMaps it sees before then it queues, and once it has synced it GETs
     * each one's owner (a "virtual" node), which the server's request counts would put on the application's bill.
     * So: one owned ConfigMap every 2 s until the latest probe is followed by no such GET (the collector watches
     * the owners) after a sync: an earlier probe's GET was seen, or a whole sync period has passed.
     */
    private static void awaitGarbageCollectorWatching(GeneratorApi api) throws Exception {
        String namespace = "e2e-probe";
        api.createGenerators(namespace, 1, 1);
        JsonObject owner = api.listGenerators(namespace).get(0);
        double start = RequestCounts.scrape(api.client()).of("GET", GeneratorApi.PLURAL);
        long started = System.nanoTime();
        long deadline = started + Duration.ofSeconds(120).toNanos();
        for (int probe = 0; System.nanoTime() < deadline; probe++) {
            double gets = RequestCounts.scrape(api.client()).of("GET", GeneratorApi.PLURAL);
            api.send("POST", GeneratorApi.configMapsPath(namespace), List.of(), ownedConfigMap(owner, "probe-" + probe),
                    "application/json");
            Thread.sleep(2_000);
            double after = RequestCounts.scrape(api.client()).of("GET", GeneratorApi.PLURAL);
            boolean synced = gets > start || System.nanoTime() - started > Duration.ofSeconds(35).toNanos();
            if (after == gets && synced) {
                Progress.say("scenario 7: the garbage collector watches %s (probe %d)", GeneratorApi.PLURAL, probe + 1);
                return;
            }
        }
        throw new IllegalStateException("the garbage collector did not start watching " + GeneratorApi.PLURAL
                + " within 120 s");
    }

    private static JsonObject ownedConfigMap(JsonObject owner, String name) {
        JsonObject metadata = GeneratorApi.metadata(name, owner.getAsJsonObject("metadata").get("namespace")
                .getAsString());
        JsonObject reference = new JsonObject();
        reference.addProperty("apiVersion", GeneratorApi.API_VERSION);
        reference.addProperty("kind", GeneratorApi.KIND);
        reference.add("name", owner.getAsJsonObject("metadata").get("name"));
        reference.add("uid", owner.getAsJsonObject("metadata").get("uid"));
        JsonArray references = new JsonArray();
        references.add(reference);
        metadata.add("ownerReferences", references);
        JsonObject configMap = new JsonObject();
        configMap.addProperty("apiVersion", "v1");
        configMap.addProperty("kind", "ConfigMap");
        configMap.add("metadata", metadata);
        return configMap;
    }

    /**
     * Fails the run when the floor's objects differ from the reconciler's in anything but their identity, versions,
     * times and field-manager bookkeeping: the floor must send what the reconciler sends.
     */
    private static void sameWrites(GeneratorApi api, String ours, String floors) throws Exception {
        String generator = GeneratorApi.names(1).get(0);
        String configMap = GeneratorApi.configMapName(generator, 0);
        JsonObject[] generators = {api.get(GeneratorApi.generatorsPath(ours) + "/" + generator),
                api.get(GeneratorApi.generatorsPath(floors) + "/" + generator)};
        JsonObject[] configMaps = {api.get(GeneratorApi.configMapsPath(ours) + "/" + configMap),
                api.get(GeneratorApi.configMapsPath(floors) + "/" + configMap)};
        JsonPrimitive[] generations = {generation(generators[0]), generation(generators[1])};
        for (JsonObject[] pair : List.of(generators, configMaps)) {
            for (int side = 0; side < 2; side++) {
                JsonObject object = pair[side];
                // The floor changed its spec more often (its rounds with watches), so generations differ: each is
                // compared as "the generation of that side's generator".
                JsonPrimitive generation = generations[side];
                JsonObject metadata = object.getAsJsonObject("metadata");
                for (String field : List.of("namespace", "uid", "resourceVersion", "creationTimestamp",
                        "managedFields")) {
                    metadata.remove(field);
                }
                sameGeneration(metadata, "generation", generation);
                if (metadata.has("annotations")) {
                    sameGeneration(metadata.getAsJsonObject("annotations"), GeneratorApi.GENERATION_ANNOTATION,
                            generation);
                }
                if (metadata.has("ownerReferences")) {
                    metadata.getAsJsonArray("ownerReferences").get(0).getAsJsonObject().remove("uid");
                }
                if (object.has("status")) {
                    JsonObject status = object.getAsJsonObject("status");
                    JsonObject condition = status.getAsJsonArray("conditions").get(0).getAsJsonObject();
                    condition.remove("lastTransitionTime");
                    sameGeneration(status, "observedGeneration", generation);
                    sameGeneration(condition, "observedGeneration", generation);
                }
            }
            if (!Objects.equals(pair[0], pair[1])) {
                throw new IllegalStateException("the floor no longer writes what the sample's reconciler writes:\n"
                        + "reconciler: " + pair[0] + "\nfloor:      " + pair[1]);
            }
        }
    }

    private static JsonPrimitive generation(JsonObject generator) {
        return generator.getAsJsonObject("metadata").getAsJsonPrimitive("generation");
    }

    /** Replaces {@code object.field} by a mark when it is {@code generation} (as a number or a string). */
    private static void sameGeneration(JsonObject object, String field, JsonPrimitive generation) {
        if (object.has(field) && object.get(field).getAsString().equals(generation.getAsString())) {
            object.addProperty(field, "the generator's generation");
        }
    }

    private void print(List<Result> results) {
        Table times = new Table(String.format("Scenario 7 — end to end: the sample's ConfigMapGenerator reconciler on "
                + "the real control plane (a fresh application JVM per run, %s; 2 ConfigMaps per generator)",
                String.join(" ", concat(StartupTime.CHILD_FLAGS, SampleAppProcess.extraJvmFlags()))),
                "N", "launch", "concurrency", "process start → caches synced", "→ ready", "start → all reconciled",
                "ready → all reconciled", "floor", "÷ floor", "floor in a fresh JVM", "÷ that floor",
                "spec change of all N → converged", "floor",
                "÷ floor", "warm spec change (median)", "floor", "÷ floor (median of pairs)", "floor watching",
                "÷ floor watching");
        for (Result r : results) {
            times.row(String.format("%,d", r.n()), r.launch(), r.concurrency() + " (default)", ms(r.cachesSynced()),
                    ms(r.synced()), ms(r.allReconciled()),
                    ms(r.syncedToReconciled()), ms(r.floorNew()), Table.ratio(r.syncedToReconciled(), r.floorNew()),
                    ms(r.floorFreshNew()), Table.ratio(r.syncedToReconciled(), r.floorFreshNew()),
                    ms(r.specConverged()) + " (patches " + ms(r.userPatches()) + ")", ms(r.floorSpec()),
                    Table.ratio(r.specConverged(), r.floorSpec()), ms(r.warmMedian(w -> w.application().millis())),
                    ms(r.warmMedian(w -> w.floor().millis())), String.format("%.2f× (%s)",
                            r.warmMedian(WarmRound::ratio), r.warm().stream()
                                    .map(w -> String.format("%.2f", w.ratio())).collect(Collectors.joining(", "))),
                    ms(r.warmMedian(w -> w.floorWatching().millis())),
                    String.format("%.2f×", r.warmMedian(w -> w.application().millis() / w.floorWatching().millis())));
        }
        times.note(String.format("concurrency: what the application reported on /actuator/watchkeeper, its default "
                + "(ReconcilerSettings.DEFAULT_CONCURRENCY in the harness's build: %d; no property set)",
                ReconcilerSettings.DEFAULT_CONCURRENCY));
        times.note("launch: java -jar = the Boot jar as built; CDS = as Spring Boot documents for start-up: the jar "
                + "extracted (java -Djarmode=tools -jar … extract), a class data sharing archive from one training run "
                + "that ends after the context refresh (-XX:ArchiveClassesAtExit, -Dspring.context.exit=onRefresh), "
                + "then -XX:SharedArchiveFile; AOT + CDS = the same with Spring AOT's generated bean definitions "
                + "(" + AOT_MODE + ") in the training run and in the run, Boot's documented pairing; AOT cache (Java 25 "
                + "or later) = Spring AOT and the JDK's ahead-of-time cache (-XX:AOTCacheOutput, then -XX:AOTCache) from "
                + "a training run that reconciles " + AheadOfTimeCache.TRAINING_GENERATORS + " new generators and a "
                + "spec change of them. The sample's AOT processing has leader election on (as deploy/ runs it), so "
                + "in the AOT launches the application also takes and renews a Lease");
        times.note("caches synced = the JVM's own uptime in Watchkeeper's 'watchkeeper caches synced' log line, when "
                + "every watcher's first list was in its store (the JVM's clock starts a few ms after the harness "
                + "launches it); ready = the harness's clock from just before the launch to the first 200 UP of "
                + "/actuator/health/readiness, polled every 5 ms: Watchkeeper's readiness indicator (caches synced) "
                + "and Boot's readiness state (run() returned)");
        times.note("all reconciled / converged = the instant the harness's own watch of the namespace sees the last "
                + "generator with status.observedGeneration = metadata.generation and both its ConfigMaps annotated "
                + "with that generation (what the server holds, not what the application reports)");
        times.note(String.format("new generators: N created before the application starts; floor = a bare client "
                + "(client-java ApiClient, JSON, no cache or queue) sending the reconciler's writes per generator "
                + "(finalizer JSON patch, 2 server-side applies, status PUT) on as many threads as the reconciler's "
                + "concurrency, objects known from a list made before its clock starts; ÷ floor = synced → all "
                + "reconciled ÷ floor (ready: reconcilers start when run() returns). Spec change: %d user threads patch spec.content of all N, the clock starts "
                + "at the first patch; the floor sends the 2 applies and the status PUT for each generator the "
                + "moment its user patch returns. Warm spec change: " + (SPEC_ROUNDS - 1) + " more spec changes of all N "
                + "after the first, each the application's and then the floor's (pairs, so both meet the machine as "
                + "it is then), the application's JVM warmed by the rounds before; medians of the times and of the "
                + "pairs' ratios, each pair's ratio in brackets. Floor in a fresh JVM: the floor's new "
                + "generators (N more, in a namespace of their own) sent from a JVM started for it with the "
                + "application's flags, which lists them first; the time from its first write to its last answer, so "
                + "it pays the JIT's start as the application does, not the JVM's start-up. Floor watching: the floor again in each warm round "
                + "(before the plain floor), with two more watches of its namespace open as a controller's are, so "
                + "the API server sends each write's event to one more watcher. The harness watches the floor's namespace during the floor's run as it watches the application's (the server serves those two watches in both). The harness checks that the floor's generator and ConfigMap come "
                + "out as the reconciler's", USER_THREADS));
        times.print();

        Table cpu = new Table("Scenario 7 — end to end: CPU per generator, the controller's and the control plane's",
                "N", "launch", "phase", "application", "its JIT", "control plane", "floor's process", "its JIT",
                "control plane (floor)");
        for (Result r : results) {
            cpuRow(cpu, r, "new generators", r.cpuNew(), r.floorCpuNew());
            cpu.row(String.format("%,d", r.n()), r.launch(), "new generators, the floor in a fresh JVM", "–", "–", "–",
                    perGenerator(r, r.floorFreshCpu().controllerNanos()), jit(r, r.floorFreshCpu()),
                    perGenerator(r, r.floorFreshCpu().controlPlaneNanos()));
            cpuRow(cpu, r, "spec change", r.cpuSpec(), r.floorCpuSpec());
            cpu.row(String.format("%,d", r.n()), r.launch(), "warm spec change (median)",
                    perGenerator(r, r.warmMedian(w -> w.application().cpu().controllerNanos())),
                    jit(r, r.warmMedian(w -> w.application().cpu().controllerJitNanos())),
                    perGenerator(r, r.warmMedian(w -> w.application().cpu().controlPlaneNanos())),
                    perGenerator(r, r.warmMedian(w -> w.floor().cpu().controllerNanos())),
                    jit(r, r.warmMedian(w -> w.floor().cpu().controllerJitNanos())),
                    perGenerator(r, r.warmMedian(w -> w.floor().cpu().controlPlaneNanos())));
            cpu.row(String.format("%,d", r.n()), r.launch(), "warm spec change, the floor watching (median)", "–",
                    "–", "–", perGenerator(r, r.warmMedian(w -> w.floorWatching().cpu().controllerNanos())),
                    jit(r, r.warmMedian(w -> w.floorWatching().cpu().controllerJitNanos())),
                    perGenerator(r, r.warmMedian(w -> w.floorWatching().cpu().controlPlaneNanos())));
        }
        cpu.note("CPU time the operating system charged to each process from the phase's start to its last "
                + "generator converged (the application: from ready), ÷ N. application = the sample's JVM; floor's "
                + "process = the harness's JVM while it is the floor (its own watches of the namespace included); "
                + "control plane = kube-apiserver, etcd and kube-controller-manager. They share the machine's cores: "
                + "what the controller spends, the API server cannot. its JIT = the part of the process's CPU its "
                + "JIT compiler threads (C1 and C2) used, from Linux's per-thread schedstat ('–' where it cannot be "
                + "read): the compiling a JVM does until its hot code is compiled, which a warm JVM no longer pays");
        cpu.print();

        Table costs = new Table("Scenario 7 — end to end: reconciles, requests and heap per generator",
                "N", "concurrency", "reconciles / new generator", "reconciles / spec change",
                "requests / new generator", "requests / spec change", "409 Conflicts (new / spec)",
                "heap after GC", "heap / generator");
        for (Result r : results) {
            costs.row(String.format("%,d", r.n()), r.label(), String.format("%.2f", r.reconcilesNew()),
                    String.format("%.2f", r.reconcilesSpec()),
                    String.format("%.2f", r.requestsNew().total() / r.n()),
                    String.format("%.2f", r.requestsSpec().total() / r.n()),
                    String.format("%.0f / %.0f", r.requestsNew().withCode(409), r.requestsSpec().withCode(409)),
                    Table.mb(r.heap()), slope(results, r));
        }
        costs.note("reconciles: counts.reconciles of /actuator/watchkeeper once the reconciler is idle (nothing "
                + "queued, scheduled or running, count still for 1 s) after each phase, ÷ N");
        costs.note("requests and 409s: kube-apiserver's apiserver_request_total (its /metrics, resource requests "
                + "only) from just before the application starts to idle after the new generators, and from then "
                + "to idle after the spec change, less the N user patches; the server counts every client, so the "
                + "garbage collector's requests in those windows (if any) are in it; watches are counted when "
                + "they end. The floor sends 4 requests per new generator and 3 per spec change");
        costs.note("heap after GC: jcmd GC.run, then GC.heap_info's used heap, after the spec change; heap / "
                + "generator = the difference between the sizes' heaps ÷ the difference of N, launched the same way");
        for (Result r : results) {
            costs.note(String.format("N=%,d %s, requests by verb, resource and code — new: %s; spec change: %s",
                    r.n(), r.label(), r.requestsNew().breakdown(), r.requestsSpec().breakdown()));
        }
        for (Result r : results) {
            costs.note(String.format("N=%,d %s: the application's own %s", r.n(), r.label(),
                    r.startedLine()));
        }
        costs.print();

        Table goals = new Table("Scenario 7 — end to end: the goals at the largest N", "goal", "launch, concurrency",
                "this run", "verdict");
        int largest = sizes.get(sizes.size() - 1);
        for (Result r : results) {
            if (r.n() != largest) {
                continue;
            }
            double newRatio = r.syncedToReconciled() / r.floorNew();
            double specRatio = r.specConverged() / r.floorSpec();
            goals.row("new generators: synced → all reconciled ≤ " + GOAL_FLOOR_RATIO + "× the floor",
                    r.label(), String.format("%.2f×", newRatio), verdict(newRatio <= GOAL_FLOOR_RATIO));
            goals.row("spec change → converged ≤ " + GOAL_FLOOR_RATIO + "× the floor", r.label(),
                    String.format("%.2f×", specRatio), verdict(specRatio <= GOAL_FLOOR_RATIO));
            double warmRatio = r.warmMedian(WarmRound::ratio);
            goals.row("warm spec change → converged ≤ " + GOAL_FLOOR_RATIO + "× the floor (median of "
                    + r.warm().size() + " pairs)", r.label(), String.format("%.2f×", warmRatio),
                    verdict(warmRatio <= GOAL_FLOOR_RATIO));
            goals.row("reconciles per new generator ≤ " + (int) GOAL_RECONCILES_PER_NEW, r.label(),
                    String.format("%.2f", r.reconcilesNew()), verdict(r.reconcilesNew() <= GOAL_RECONCILES_PER_NEW));
            double conflicts = r.requestsNew().withCode(409) + r.requestsSpec().withCode(409);
            goals.row("409 Conflicts = 0 (the user's merge patches cannot conflict, so all are the application's)", r.label(),
                    String.format("%.0f", conflicts), verdict(conflicts == 0));
            goals.row("process start → caches synced ≤ " + ms(GOAL_SYNCED_MILLIS), r.label(),
                    ms(r.cachesSynced()), verdict(r.cachesSynced() <= GOAL_SYNCED_MILLIS));
        }
        goals.note("one run per row, on a shared machine: the first phases' times are single measurements, not "
                + "medians; the warm row is the median of its pairs' ratios");
        goals.print();
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> both = new ArrayList<>(first);
        both.addAll(second);
        return both;
    }

    private static String perGenerator(Result r, double nanos) {
        return String.format("%.2f ms", nanos / 1e6 / r.n());
    }

    private static void cpuRow(Table table, Result r, String phase, CpuTime application, CpuTime floor) {
        table.row(String.format("%,d", r.n()), r.launch(), phase,
                String.format("%.2f ms", application.controllerMillisPer(r.n())), jit(r, application),
                String.format("%.2f ms", application.controlPlaneMillisPer(r.n())),
                String.format("%.2f ms", floor.controllerMillisPer(r.n())), jit(r, floor),
                String.format("%.2f ms", floor.controlPlaneMillisPer(r.n())));
    }

    /** The controller's JIT compilers' CPU per generator, '–' where it could not be read. */
    private static String jit(Result r, CpuTime cpu) {
        return jit(r, cpu.controllerJitNanos());
    }

    private static String jit(Result r, double nanos) {
        return nanos < 0 ? "–" : perGenerator(r, nanos); // CompilerThreads.UNKNOWN, or the median of unknowns
    }

    /** The heap per generator between this size and the other size launched the same way. */
    private static String slope(List<Result> results, Result r) {
        return results.stream().filter(o -> o.n() != r.n() && o.launch().equals(r.launch()))
                .findFirst()
                .map(o -> String.format("%,.0f B", (double) (r.heap() - o.heap()) / (r.n() - o.n())))
                .orElse("–");
    }

    private static String verdict(boolean met) {
        return met ? "met" : "MISSED";
    }

    private static String ms(double millis) {
        return String.format("%,.0f ms", millis);
    }

    /** One size launched one way; times in milliseconds ({@code synced}: ready). */
    private record Result(int n, String launch, int concurrency, double cachesSynced, double synced,
            double allReconciled,
            double syncedToReconciled, double floorNew, double userPatches, double specConverged, double floorSpec,
            double reconcilesNew, double reconcilesSpec, RequestCounts requestsNew, RequestCounts requestsSpec,
            long heap, String startedLine, CpuTime cpuNew, CpuTime cpuSpec, CpuTime floorCpuNew,
            CpuTime floorCpuSpec, List<WarmRound> warm, double floorFreshNew, CpuTime floorFreshCpu) {

        /** The median over the warm rounds of {@code value}. */
        double warmMedian(java.util.function.ToDoubleFunction<WarmRound> value) {
            Stats stats = new Stats();
            warm.forEach(round -> stats.add(value.applyAsDouble(round)));
            return stats.median();
        }

        String label() {
            return launch + ", " + concurrency + " (default)";
        }

        /** Filled in as the run goes. */
        static final class Builder {
            final int n;
            final String launch;
            int concurrency;
            double cachesSynced;
            double synced;
            double allReconciled;
            double syncedToReconciled;
            double floorNew;
            double userPatches;
            double specConverged;
            double floorSpec;
            double reconcilesNew;
            double reconcilesSpec;
            RequestCounts requestsNew;
            RequestCounts requestsSpec;
            long heap;
            String startedLine;
            CpuTime cpuNew;
            CpuTime cpuSpec;
            CpuTime floorCpuNew;
            CpuTime floorCpuSpec;
            final List<WarmRound> warm = new ArrayList<>();
            double floorFreshNew;
            CpuTime floorFreshCpu;

            Builder(int n, String launch) {
                this.n = n;
                this.launch = launch;
            }

            Result build() {
                return new Result(n, launch, concurrency, cachesSynced, synced, allReconciled, syncedToReconciled,
                        floorNew, userPatches, specConverged, floorSpec, reconcilesNew, reconcilesSpec, requestsNew,
                        requestsSpec, heap, startedLine, cpuNew, cpuSpec, floorCpuNew, floorCpuSpec, List.copyOf(warm),
                        floorFreshNew, floorFreshCpu);
            }
        }
    }
}
