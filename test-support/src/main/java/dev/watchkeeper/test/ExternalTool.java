package dev.watchkeeper.test;

import org.opentest4j.TestAbortedException;

/**
 * The one rule for tests that need something outside the JVM (the real control plane, {@code kubectl}): when it
 * is missing the test is skipped with a one-line reason, unless the environment variable
 * {@value #REQUIRE_VARIABLE} is {@code true} (CI sets it), in which case the test fails.
 */
public final class ExternalTool {

    /** The environment variable that turns a missing external tool from a skip into a failure. */
    public static final String REQUIRE_VARIABLE = "WATCHKEEPER_REQUIRE_CONTROL_PLANE";

    private ExternalTool() {
    }

    /** Whether a missing tool fails the test ({@value #REQUIRE_VARIABLE}{@code =true}). */
    public static boolean required() {
        return Boolean.parseBoolean(System.getenv(REQUIRE_VARIABLE));
    }

    /**
     * The exception to throw for a missing tool: a {@link TestAbortedException} (a skip) or, when tools are
     * required, an {@link AssertionError}.
     */
    public static RuntimeException missing(String reason) {
        if (required()) {
            throw new AssertionError(reason + " (" + REQUIRE_VARIABLE + "=true, so this fails instead of skipping)");
        }
        return new TestAbortedException(reason);
    }
}
