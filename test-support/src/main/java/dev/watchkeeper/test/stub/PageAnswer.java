package dev.watchkeeper.test.stub;

import java.util.List;
import java.util.Objects;

/**
 * One page of a list response: items, and the list's {@code resourceVersion} and {@code continue} token.
 * Items are client-java model objects (serialized with client-java's {@code JSON}) or JSON text sent verbatim.
 *
 * <pre>{@code
 * page(cm("a"), cm("b")).continueToken("c1")
 * page().resourceVersion("7")
 * }</pre>
 *
 * @param items           the objects, or their JSON
 * @param resourceVersion {@code metadata.resourceVersion} of the list, or {@code null} to leave it out
 * @param continueToken   {@code metadata.continue}, or {@code null} on the last page
 */
public record PageAnswer(List<Object> items, String resourceVersion, String continueToken) implements ListAnswer {

    public PageAnswer {
        items = List.copyOf(Objects.requireNonNull(items, "items"));
    }

    /** The same page with list {@code resourceVersion} {@code version} ({@code null} = none). */
    public PageAnswer resourceVersion(String version) {
        return new PageAnswer(items, version, continueToken);
    }

    /** The same page with continue token {@code token} ({@code null} = last page). */
    public PageAnswer continueToken(String token) {
        return new PageAnswer(items, resourceVersion, token);
    }
}
