package dev.watchkeeper.bench;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * CPU time the operating system charged to the processes of the end-to-end scenario, read at one instant: the
 * controller (the sample application, or the harness itself when it is the floor) and the control plane
 * (kube-apiserver, the launcher that runs etcd, kube-controller-manager). On a machine whose cores all of them
 * share, what the controller spends is taken from the API server; the difference of two readings shows how much.
 * Of the controller's, the part its JIT compilers used ({@link CompilerThreads}; {@link CompilerThreads#UNKNOWN}
 * where that cannot be read).
 */
record CpuTime(long controllerNanos, long controlPlaneNanos, long controllerJitNanos) {

    /** The executables of the control plane's processes ({@code controlplane/bin}). */
    private static final List<String> CONTROL_PLANE = List.of("kube-apiserver", "launcher", "kube-controller-manager");

    /** Now, with {@code controller} the process whose CPU counts as the controller's. */
    static CpuTime of(ProcessHandle controller) {
        long plane = ProcessHandle.allProcesses()
                .filter(process -> process.info().command().map(CpuTime::isControlPlane).orElse(false))
                .mapToLong(CpuTime::nanos)
                .sum();
        return new CpuTime(nanos(controller), plane, CompilerThreads.nanos(controller.pid()));
    }

    /** The CPU spent between {@code earlier} and this reading. */
    CpuTime since(CpuTime earlier) {
        boolean unknown = controllerJitNanos == CompilerThreads.UNKNOWN
                || earlier.controllerJitNanos == CompilerThreads.UNKNOWN;
        long jit = unknown ? CompilerThreads.UNKNOWN : controllerJitNanos - earlier.controllerJitNanos;
        return new CpuTime(controllerNanos - earlier.controllerNanos, controlPlaneNanos - earlier.controlPlaneNanos,
                jit);
    }

    /** The controller's CPU per generator, in milliseconds. */
    double controllerMillisPer(int generators) {
        return controllerNanos / 1e6 / generators;
    }

    /** The control plane's CPU per generator, in milliseconds. */
    double controlPlaneMillisPer(int generators) {
        return controlPlaneNanos / 1e6 / generators;
    }

    private static boolean isControlPlane(String command) {
        String executable = command.substring(command.lastIndexOf('/') + 1);
        return CONTROL_PLANE.contains(executable);
    }

    private static long nanos(ProcessHandle process) {
        Optional<Duration> cpu = process.info().totalCpuDuration();
        return cpu.map(Duration::toNanos).orElseThrow(() -> new IllegalStateException(
                "the operating system does not report the CPU time of process " + process.pid()));
    }
}
