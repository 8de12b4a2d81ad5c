package dev.watchkeeper.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/** A measuring child JVM's answer: the numbers of the {@code RESULT …} line it prints on standard output. */
final class ChildResult {

    private ChildResult() {
    }

    /** Reads {@code process}'s output to its end and returns its last {@code RESULT} line's numbers. */
    static long[] read(Process process, String who) throws Exception {
        long[] result = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("RESULT ")) {
                    result = Arrays.stream(line.substring("RESULT ".length()).trim().split(" "))
                            .mapToLong(Long::parseLong).toArray();
                }
            }
        }
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
        }
        if (result == null) {
            throw new IllegalStateException(who + " gave no result: exit " + process.exitValue());
        }
        return result;
    }
}
