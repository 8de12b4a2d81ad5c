package dev.watchkeeper.reconcile;

import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The dependents of one primary type, in the order they are reconciled: each after those it {@link
 * Dependent#dependsOn depends on}, otherwise in the order declared. Handed to
 * {@link ReconcileContext#reconcileDependents}; immutable, so one instance serves every reconcile.
 *
 * <pre>{@code
 * static final Dependents<WebPage> DEPENDENTS = Dependents.of(WebPage.class,
 *         Dependent.of("config-map", V1ConfigMap.class, WebPages::configMap),
 *         Dependent.of("deployment", V1Deployment.class, WebPages::deployment).dependsOn("config-map"),
 *         Dependent.of("service", V1Service.class, WebPages::service).dependsOn("deployment"));
 * }</pre>
 *
 * @param <P> the primary's type
 */
public final class Dependents<P extends KubernetesObject> {

    private final Class<P> primaryType;
    private final List<Dependent<P, ?>> ordered;

    private Dependents(Class<P> primaryType, List<Dependent<P, ?>> ordered) {
        this.primaryType = primaryType;
        this.ordered = ordered;
    }

    /**
     * {@code dependents} of {@code primaryType}'s objects.
     *
     * @throws IllegalArgumentException when two share a name, one depends on a name not declared, or the
     *                                  dependencies form a cycle
     */
    @SafeVarargs
    public static <P extends KubernetesObject> Dependents<P> of(Class<P> primaryType,
            Dependent<P, ?>... dependents) {
        Objects.requireNonNull(primaryType, "primaryType");
        Map<String, Dependent<P, ?>> byName = new LinkedHashMap<>();
        for (Dependent<P, ?> dependent : dependents) {
            if (byName.put(dependent.name(), dependent) != null) {
                throw new IllegalArgumentException("two dependents are named " + dependent.name());
            }
        }
        for (Dependent<P, ?> dependent : dependents) {
            for (String needed : dependent.dependsOn()) {
                if (!byName.containsKey(needed)) {
                    throw new IllegalArgumentException("dependent " + dependent.name() + " depends on " + needed
                            + ", which is not declared; declared: " + byName.keySet());
                }
            }
        }
        return new Dependents<>(primaryType, ordered(byName));
    }

    /** Each after those it depends on, else in the order declared (a depth-first order of the declarations). */
    private static <P extends KubernetesObject> List<Dependent<P, ?>> ordered(Map<String, Dependent<P, ?>> byName) {
        List<Dependent<P, ?>> ordered = new ArrayList<>();
        Set<String> done = new HashSet<>();
        Map<String, Boolean> visiting = new HashMap<>();
        for (String name : byName.keySet()) {
            visit(name, byName, done, visiting, ordered, new ArrayList<>());
        }
        return List.copyOf(ordered);
    }

    private static <P extends KubernetesObject> void visit(String name, Map<String, Dependent<P, ?>> byName,
            Set<String> done, Map<String, Boolean> visiting, List<Dependent<P, ?>> ordered, List<String> path) {
        if (done.contains(name)) {
            return;
        }
        path.add(name);
        if (visiting.put(name, true) != null) {
            throw new IllegalArgumentException("the dependents depend on each other in a cycle: "
                    + String.join(" -> ", path));
        }
        for (String needed : byName.get(name).dependsOn()) {
            visit(needed, byName, done, visiting, ordered, path);
        }
        path.remove(path.size() - 1);
        done.add(name);
        ordered.add(byName.get(name));
    }

    /** The primary type. */
    public Class<P> primaryType() {
        return primaryType;
    }

    /** The dependents in the order they are reconciled. */
    public List<Dependent<P, ?>> ordered() {
        return ordered;
    }
}
