package dev.watchkeeper.internal.annotation;

import java.util.List;
import java.util.function.Supplier;

/**
 * Which namespaces a reconciler runs in when they may be configured outside its annotation; Spring Boot's
 * {@code watchkeeper.reconcilers.<name>.namespaces} replace the annotation's {@code namespace} and
 * {@code namespaces}.
 *
 * <pre>{@code
 * NamespaceOverrides overrides = (name, annotated) -> name.equals("generator") ? List.of("team-a", "team-b")
 *         : annotated.get();
 * }</pre>
 */
@FunctionalInterface
public interface NamespaceOverrides {

    /**
     * The namespaces of the reconciler {@code reconcilerName}: none = all, one, or a set.
     *
     * @param annotated the namespaces its annotation names, resolved and checked when called (so attributes that
     *                  are replaced are not read)
     */
    List<String> namespaces(String reconcilerName, Supplier<List<String>> annotated);

    /** No overrides: the annotations decide. */
    static NamespaceOverrides none() {
        return (reconcilerName, annotated) -> annotated.get();
    }
}
