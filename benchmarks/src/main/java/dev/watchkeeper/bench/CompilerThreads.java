package dev.watchkeeper.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The CPU time a JVM's JIT compilers have used: the threads HotSpot names {@code C1 CompilerThread…} and
 * {@code C2 CompilerThread…}, read from Linux's {@code /proc/<pid>/task/<tid>/schedstat} (its first number is the
 * nanoseconds the thread has run). A compiler thread that has ended is not counted; HotSpot keeps at least one per
 * compiler, and on 2 cores it starts only one of each.
 */
final class CompilerThreads {

    /** Where {@code /proc} does not say (not Linux). */
    static final long UNKNOWN = -1;

    /** The names Linux gives HotSpot's compiler threads: the first 15 characters of theirs. */
    private static final String C1 = "C1 CompilerThre";
    private static final String C2 = "C2 CompilerThre";

    private CompilerThreads() {
    }

    /** The compiler threads' CPU of process {@code pid} so far, in nanoseconds, or {@link #UNKNOWN}. */
    static long nanos(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        if (!Files.isDirectory(tasks)) {
            return UNKNOWN;
        }
        try (Stream<Path> threads = Files.list(tasks)) {
            return threads.mapToLong(CompilerThreads::compilerNanos).sum();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the threads of process " + pid, e);
        }
    }

    /** The thread's CPU if it is a compiler thread, else 0 (also when it ended while being read). */
    private static long compilerNanos(Path thread) {
        try {
            String name = Files.readString(thread.resolve("comm")).strip();
            if (!name.equals(C1) && !name.equals(C2)) {
                return 0;
            }
            String schedstat = Files.readString(thread.resolve("schedstat")).strip();
            return Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
        } catch (NoSuchFileException ended) {
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + thread, e);
        }
    }
}
