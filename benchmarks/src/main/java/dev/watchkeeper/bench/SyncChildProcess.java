package dev.watchkeeper.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** A measuring JVM running {@link SyncChild} for one implementation, driven over its standard input and output. */
final class SyncChildProcess implements AutoCloseable {

    /** The exit status of a JVM run with {@code -XX:+ExitOnOutOfMemoryError} that ran out of heap. */
    static final int EXIT_OUT_OF_MEMORY = 3;

    private final Process process;
    private final BufferedReader out;
    private final PrintWriter in;
    private volatile boolean killed;

    /** Starts {@code java <jvmFlags> … sync-child impl url objects}. */
    SyncChildProcess(String impl, String url, int objects, List<String> jvmFlags) throws Exception {
        this(List.of("sync-child", impl, url, Integer.toString(objects)), jvmFlags);
    }

    /**
     * Starts {@code java <jvmFlags> … <childArgs>}: a child {@link Main} runs that speaks the same protocol ({@code GO}
     * in, an optional {@code TRIGGER} and a {@code RESULT} line out), e.g. {@link ShardChild}.
     */
    SyncChildProcess(List<String> childArgs, List<String> jvmFlags) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(jvmFlags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(childArgs);
        process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    /**
     * One round: sync, steady heap, then the relist the child asks for, which {@code forceRelist} makes the server
     * do. Returns {@link SyncChild}'s result; the JVM is killed when the round takes longer than {@code limit}.
     *
     * @throws Ended when the JVM ends (or is killed) before it reports
     */
    long[] round(Runnable forceRelist, Duration limit) throws Exception {
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
        ScheduledFuture<?> kill = watchdog.schedule(() -> {
            killed = true;
            process.destroyForcibly();
        }, limit.toMillis(), TimeUnit.MILLISECONDS);
        long[] synced = null;
        try {
            in.println("GO");
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("TRIGGER ")) {
                    synced = numbers(line);
                    forceRelist.run();
                } else if (line.startsWith("RESULT ")) {
                    return numbers(line);
                }
            }
            throw new Ended(process.waitFor(), killed, synced);
        } finally {
            kill.cancel(false);
            watchdog.shutdownNow();
        }
    }

    /** The numbers after a line's first word. */
    private static long[] numbers(String line) {
        String[] parts = line.split(" ");
        long[] numbers = new long[parts.length - 1];
        for (int k = 0; k < numbers.length; k++) {
            numbers[k] = Long.parseLong(parts[k + 1]);
        }
        return numbers;
    }

    @Override
    public void close() {
        in.close();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroy();
            }
        } catch (InterruptedException e) {
            process.destroy();
            Thread.currentThread().interrupt();
        }
    }

    /** The measuring JVM ended before it reported a round. */
    static final class Ended extends Exception {
        private final int exitStatus;
        private final boolean overTime;
        private final long[] synced;

        /** @param synced {readyMillis, steadyBytes} when the sync had finished and the relist was under way */
        Ended(int exitStatus, boolean overTime, long[] synced) {
            super((overTime ? "the measuring JVM was stopped over its time limit"
                    : "the measuring JVM ended with exit status " + exitStatus) + " in the "
                    + (synced == null ? "sync" : "relist"));
            this.exitStatus = exitStatus;
            this.overTime = overTime;
            this.synced = synced;
        }

        int exitStatus() {
            return exitStatus;
        }

        boolean outOfMemory() {
            return !overTime && exitStatus == EXIT_OUT_OF_MEMORY;
        }

        boolean overTime() {
            return overTime;
        }

        /** {@code sync} or {@code relist}: what the round was doing. */
        String phase() {
            return synced == null ? "sync" : "relist";
        }

        /** The sync's {readyMillis, steadyBytes} when it had finished before the JVM ended, else empty. */
        Optional<long[]> synced() {
            return Optional.ofNullable(synced);
        }
    }
}
