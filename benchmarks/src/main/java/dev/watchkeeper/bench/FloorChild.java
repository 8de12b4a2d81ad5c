package dev.watchkeeper.bench;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.Config;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The floor's new generators in a JVM of their own, started as the application's is ({@link StartupTime#CHILD_FLAGS}
 * and the extra flags of {@link SampleAppProcess#extraJvmFlags()}): so the floor, too, pays for a JVM that has just
 * started. The child lists the namespace's generators (as the application's cache does before its reconciles
 * start), then sends the floor's writes and prints the time from its first write to its last answer, the CPU its
 * JVM used meanwhile, and the part of it its JIT compilers used ({@link CompilerThreads}).
 */
final class FloorChild {

    private FloorChild() {
    }

    /** In the harness: runs the child over the generators of {@code namespace}; {elapsed, CPU, JIT} in nanoseconds. */
    static long[] run(Path kubeconfig, String namespace, int concurrency) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        command.addAll(StartupTime.CHILD_FLAGS);
        command.addAll(SampleAppProcess.extraJvmFlags());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "floor-child",
                kubeconfig.toString(), namespace, Integer.toString(concurrency)));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        return ChildResult.read(process, "the floor's JVM");
    }

    /** In the child: {@code KUBECONFIG NAMESPACE CONCURRENCY}. */
    static void main(List<String> args) throws Exception {
        ApiClient client = Config.fromConfig(args.get(0));
        GeneratorApi api = new GeneratorApi(client);
        List<JsonObject> generators = api.listGenerators(args.get(1));
        FloorController floor = new FloorController(api, Integer.parseInt(args.get(2)));
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long self = ProcessHandle.current().pid();
        long cpu = os.getProcessCpuTime();
        long jit = CompilerThreads.nanos(self);
        long elapsed = floor.reconcileNew(generators);
        long jitAfter = CompilerThreads.nanos(self);
        System.out.println("RESULT " + elapsed + " " + (os.getProcessCpuTime() - cpu) + " "
                + (jit == CompilerThreads.UNKNOWN ? CompilerThreads.UNKNOWN : jitAfter - jit));
    }
}
