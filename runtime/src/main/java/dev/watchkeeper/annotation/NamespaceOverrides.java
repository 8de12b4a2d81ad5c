package dev.watchkeeper.annotation;

import java.util.List;

/**
 * Namespaces configured for a reconciler outside its annotation, which replace the annotation's {@code namespace}
 * and {@code namespaces}; Spring Boot reads them from {@code watchkeeper.reconcilers.<name>.namespaces}.
 *
 * <pre>{@code
 * NamespaceOverrides overrides = name -> name.equals("generator") ? List.of("team-a", "team-b") : List.of();
 * }</pre>
 */
@FunctionalInterface
public interface NamespaceOverrides {

    /** The namespaces of the reconciler {@code reconcilerName}; empty = as its annotation says. */
    List<String> of(String reconcilerName);

    /** No overrides: the annotations decide. */
    static NamespaceOverrides none() {
        return reconcilerName -> List.of();
    }
}
