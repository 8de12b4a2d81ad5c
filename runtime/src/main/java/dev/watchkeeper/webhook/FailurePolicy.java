package dev.watchkeeper.webhook;

/**
 * What the API server does when a webhook cannot answer (unreachable, too slow, an invalid answer), and what the
 * starter answers for a method that overruns its time: {@code FAIL} refuses the request, {@code IGNORE} admits it.
 */
public enum FailurePolicy {
    FAIL("Fail"), IGNORE("Ignore");

    private final String wireName;

    FailurePolicy(String wireName) {
        this.wireName = wireName;
    }

    /** {@code Fail} or {@code Ignore}, as a webhook configuration spells it. */
    public String wireName() {
        return wireName;
    }
}
