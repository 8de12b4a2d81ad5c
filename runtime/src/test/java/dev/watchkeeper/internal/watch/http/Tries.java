package dev.watchkeeper.internal.watch.http;

import java.util.Random;

/**
 * Runs a property on generated inputs, each try drawing from a {@link Random} of its own seed: seeds
 * {@code base, base + 1, …}, so the normal build always tries the same inputs and a failing try replays alone.
 * {@code -Dwatchkeeper.json.tries=N} sets the number of tries (10,000 by default; the {@code fuzz-long} profile
 * runs 1,000,000), {@code -Dwatchkeeper.json.seed=S} the first seed (0 by default; another one tries new inputs).
 */
final class Tries {

    static final String TRIES = "watchkeeper.json.tries";
    static final String SEED = "watchkeeper.json.seed";

    /** One try: checks the property on what it draws from {@code random}, throwing an AssertionError if it fails. */
    interface Try {
        void run(Random random) throws Exception;
    }

    private Tries() {
    }

    /** Runs {@code property} the configured number of times; a failure names its seed and how to replay it. */
    static void run(String property, Try body) {
        int tries = Integer.getInteger(TRIES, 10_000);
        long base = Long.getLong(SEED, 0L);
        long start = System.nanoTime();
        for (int i = 0; i < tries; i++) {
            long seed = base + i;
            try {
                body.run(new Random(seed));
            } catch (Exception | AssertionError failure) {
                throw new AssertionError(property + ": the try with seed " + seed + " failed (after " + i
                        + " passed); replay it with -D" + SEED + "=" + seed + " -D" + TRIES + "=1", failure);
            }
        }
        System.out.printf("%s: %,d tries passed (seeds %d to %d) in %.1f s%n", property, tries, base,
                base + tries - 1, (System.nanoTime() - start) / 1e9);
    }
}
