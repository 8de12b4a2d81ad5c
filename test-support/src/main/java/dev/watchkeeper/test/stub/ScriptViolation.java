package dev.watchkeeper.test.stub;

import java.util.Objects;

/**
 * A request the script did not allow for: a watch where the next step was a list (or the reverse), a path with
 * no script, a method other than GET. The client got a 500 (or 404/405) Status saying so; the test should fail.
 *
 * @param request what arrived
 * @param problem what was wrong, e.g. {@code stub script expected a list but got a watch}
 */
public record ScriptViolation(RecordedRequest request, String problem) {

    public ScriptViolation {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(problem, "problem");
    }

    @Override
    public String toString() {
        return problem + ": " + request;
    }
}
