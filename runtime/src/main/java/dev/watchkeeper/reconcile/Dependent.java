package dev.watchkeeper.reconcile;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobCondition;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * One kind of object a primary owns, declared by the state it should have: a function of the primary (and the
 * reconcile's context) that returns the desired object, or for a {@link #bulk bulk} dependent the desired objects of
 * one kind, keyed by name. {@link ReconcileContext#reconcileDependents} applies each with server-side apply as the
 * primary's controller, skips those whose cached copy already holds every field it sets, deletes the ones no longer
 * desired, and waits for each to be {@link #readyWhen ready} before those that {@link #dependsOn depend on it}.
 * An {@link #external external} dependent is a resource outside Kubernetes, made and deleted through an
 * {@link ExternalResource}, and polled for changes when it {@link #pollEvery says how often}.
 * Immutable: each {@code with}-style method returns a new declaration.
 *
 * <pre>{@code
 * Dependent<WebPage, V1Deployment> deployment = Dependent.of("deployment", V1Deployment.class, WebPages::deployment)
 *         .dependsOn("config-map").readyWhen(Dependent.deploymentAvailable());
 * }</pre>
 *
 * @param <P> the primary's type
 * @param <S> the dependent objects' type: a Kubernetes object, or an external resource's state
 */
public final class Dependent<P extends KubernetesObject, S> {

    private final String name;
    private final Class<S> type;
    private final BiFunction<P, ReconcileContext, Collection<S>> desired;
    private final boolean bulk;
    private final List<String> dependsOn;
    private final Predicate<S> ready;
    private final Predicate<P> active;
    /** {@code null} for a Kubernetes dependent. */
    private final ExternalResource<P, S> external;
    /** {@code null}: not polled. */
    private final Duration pollInterval;

    private Dependent(String name, Class<S> type, BiFunction<P, ReconcileContext, Collection<S>> desired,
            boolean bulk, List<String> dependsOn, Predicate<S> ready, Predicate<P> active,
            ExternalResource<P, S> external, Duration pollInterval) {
        this.name = requireName(name);
        this.type = Objects.requireNonNull(type, "type");
        this.desired = Objects.requireNonNull(desired, "desired");
        this.bulk = bulk;
        this.dependsOn = List.copyOf(dependsOn);
        this.ready = Objects.requireNonNull(ready, "ready");
        this.active = Objects.requireNonNull(active, "active");
        this.external = external;
        this.pollInterval = pollInterval;
    }

    /**
     * One object of {@code type} named {@code name} among the primary's dependents, as {@code desired} returns it
     * ({@code null}: none is desired now, and one made before is deleted). Ready once it exists, unless
     * {@link #readyWhen} says otherwise.
     */
    public static <P extends KubernetesObject, S extends KubernetesObject> Dependent<P, S> of(String name,
            Class<S> type, BiFunction<P, ReconcileContext, S> desired) {
        return new Dependent<>(name, type, single(desired), false, List.of(), object -> true, primary -> true, null,
                null);
    }

    /**
     * A resource outside Kubernetes (a database schema, a bucket, a DNS record) whose state is {@code type}, made,
     * changed and deleted through {@code resource}: each reconcile {@link ExternalResource#fetch fetches} its actual
     * state, creates it when absent and updates it when it does not {@link ExternalResource#matches match} the
     * desired one. Ready once it exists, unless {@link #readyWhen} says otherwise. Not owned by the primary, so the
     * garbage collector cannot remove it: {@link ReconcileContext#deleteDependents} does, from the primary's cleanup.
     */
    public static <P extends KubernetesObject, R> Dependent<P, R> external(String name, Class<R> type,
            ExternalResource<P, R> resource) {
        Objects.requireNonNull(resource, "resource");
        return new Dependent<>(name, type, single(resource::desired), false, List.of(), state -> true,
                primary -> true, resource, null);
    }

    private static <P, S> BiFunction<P, ReconcileContext, Collection<S>> single(
            BiFunction<P, ReconcileContext, S> desired) {
        Objects.requireNonNull(desired, "desired");
        return (primary, context) -> {
            S object = desired.apply(primary, context);
            return object == null ? List.of() : List.of(object);
        };
    }

    /**
     * Objects of {@code type} as {@code desired} returns them, each by its {@code metadata.name}: those made before
     * and no longer returned are deleted. Ready when each is.
     */
    public static <P extends KubernetesObject, S extends KubernetesObject> Dependent<P, S> bulk(String name,
            Class<S> type, BiFunction<P, ReconcileContext, Collection<S>> desired) {
        return new Dependent<>(name, type, desired, true, List.of(), object -> true, primary -> true, null, null);
    }

    /** Applied only once each of the dependents named here is ready; a name must be declared among the same set. */
    public Dependent<P, S> dependsOn(String... names) {
        return new Dependent<>(name, type, desired, bulk, List.of(names), ready, active, external, pollInterval);
    }

    /** Ready when {@code predicate} holds for the object as stored (the answer of its apply, or the cached copy). */
    public Dependent<P, S> readyWhen(Predicate<S> predicate) {
        return new Dependent<>(name, type, desired, bulk, dependsOn, predicate, active, external, pollInterval);
    }

    /**
     * Exists only while {@code predicate} holds for the primary (an Ingress only when the primary asks to be exposed):
     * otherwise the objects made before are deleted and it counts as inactive, which holds up nothing.
     */
    public Dependent<P, S> activeWhen(Predicate<P> predicate) {
        return new Dependent<>(name, type, desired, bulk, dependsOn, ready, predicate, external, pollInterval);
    }

    /**
     * For an {@link #external} dependent: fetch its actual state every {@code interval} between reconciles, and
     * reconcile the primary when it changed (someone dropped the schema). A failed fetch is tried again after a
     * doubling delay, at most 5 minutes; the polls and their failures are in the reconciler's snapshot.
     *
     * @throws IllegalStateException for a Kubernetes dependent, whose changes its watcher already sees
     */
    public Dependent<P, S> pollEvery(Duration interval) {
        if (external == null) {
            throw new IllegalStateException("dependent " + name + " is a Kubernetes dependent: its watcher sees its"
                    + " changes, so it is not polled");
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("dependent " + name + " polls every positive interval, not " + interval);
        }
        return new Dependent<>(name, type, desired, bulk, dependsOn, ready, active, external, interval);
    }

    /** The resource behind an {@link #external} dependent, or {@code null} for a Kubernetes dependent. */
    public ExternalResource<P, S> externalResource() {
        return external;
    }

    /** How often an external dependent is polled ({@link #pollEvery}), or {@code null} when it is not. */
    public Duration pollInterval() {
        return pollInterval;
    }

    /** Its name among the primary's dependents: in the label {@code watchkeeper.dev/dependent} of its objects. */
    public String name() {
        return name;
    }

    /** The type of its objects. */
    public Class<S> type() {
        return type;
    }

    /** Whether it was declared with {@link #bulk}. */
    public boolean isBulk() {
        return bulk;
    }

    /** The dependents it waits for. */
    public List<String> dependsOn() {
        return dependsOn;
    }

    /** The desired objects for {@code primary}, none when it is inactive. */
    public Collection<S> desired(P primary, ReconcileContext context) {
        return isActive(primary) ? desired.apply(primary, context) : List.of();
    }

    /** Whether it exists for {@code primary} ({@link #activeWhen}). */
    public boolean isActive(P primary) {
        return active.test(primary);
    }

    /** Whether {@code stored} is ready ({@link #readyWhen}). */
    public boolean isReady(S stored) {
        return ready.test(stored);
    }

    /**
     * A Deployment whose controller has rolled out its latest spec: observed its generation, updated every replica,
     * and has them all available (what {@code kubectl rollout status} waits for).
     */
    public static Predicate<V1Deployment> deploymentAvailable() {
        return deployment -> {
            long generation = deployment.getMetadata().getGeneration() == null ? 0
                    : deployment.getMetadata().getGeneration();
            int replicas = deployment.getSpec() == null || deployment.getSpec().getReplicas() == null ? 1
                    : deployment.getSpec().getReplicas();
            var status = deployment.getStatus();
            return status != null && status.getObservedGeneration() != null
                    && status.getObservedGeneration() >= generation
                    && orZero(status.getUpdatedReplicas()) >= replicas
                    && orZero(status.getAvailableReplicas()) >= replicas;
        };
    }

    /** A StatefulSet whose replicas are all ready at its current revision. */
    public static Predicate<V1StatefulSet> statefulSetReady() {
        return set -> {
            int replicas = set.getSpec() == null || set.getSpec().getReplicas() == null ? 1 : set.getSpec().getReplicas();
            var status = set.getStatus();
            long generation = set.getMetadata().getGeneration() == null ? 0 : set.getMetadata().getGeneration();
            return status != null && status.getObservedGeneration() != null
                    && status.getObservedGeneration() >= generation && orZero(status.getReadyReplicas()) >= replicas
                    && Objects.equals(status.getCurrentRevision(), status.getUpdateRevision());
        };
    }

    /** A Job that has completed ({@code Complete=True}). */
    public static Predicate<V1Job> jobComplete() {
        return job -> job.getStatus() != null && Optional.ofNullable(job.getStatus().getConditions()).orElse(List.of())
                .stream().anyMatch(condition -> isTrue(condition, "Complete"));
    }

    private static boolean isTrue(V1JobCondition condition, String type) {
        return type.equals(condition.getType()) && "True".equals(condition.getStatus());
    }

    private static int orZero(Integer value) {
        return value == null ? 0 : value;
    }

    private static String requireName(String name) {
        if (name == null || !name.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
            throw new IllegalArgumentException("a dependent's name is a label value of lowercase letters, digits and"
                    + " '-' (at most 63): " + name);
        }
        return name;
    }
}
