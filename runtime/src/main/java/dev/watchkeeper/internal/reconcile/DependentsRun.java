package dev.watchkeeper.internal.reconcile;

import com.google.gson.JsonObject;
import dev.watchkeeper.internal.api.ApiErrors;
import dev.watchkeeper.reconcile.Conditions;
import dev.watchkeeper.reconcile.Dependent;
import dev.watchkeeper.reconcile.Dependents;
import dev.watchkeeper.reconcile.DependentsResult;
import dev.watchkeeper.reconcile.DependentsResult.DependentState;
import dev.watchkeeper.reconcile.DependentsResult.Phase;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One run of a primary's {@link Dependents} in a reconcile (docs/reconcilers.md, "Dependents"): in their order, each
 * dependent whose dependencies are ready is applied as the primary's controller, object by object, unless the cached
 * copy already holds every field the desired one sets ({@link Containment}); its objects no longer desired are
 * deleted; an inactive one's objects are all deleted. Its objects are found by the owner index and the label
 * {@value #LABEL}, so objects the primary owns otherwise are left alone. When one is not ready, the primary's
 * {@code Ready} and {@code Reconciling} conditions name it; when one failed, the others still run and the first
 * failure is thrown, so the reconcile retries. An external dependent's resource is fetched, then made, changed or
 * deleted through its {@code ExternalResource}, and polled from then on when it says how often ({@link
 * ExternalPolls}). Each run is recorded in the reconciler's {@link DependentStats}.
 */
final class DependentsRun<P extends KubernetesObject> {

    /** The label that names, on each object a dependent made, that dependent. */
    static final String LABEL = "watchkeeper.dev/dependent";
    static final String NOT_READY = "DependentNotReady";

    private final DefaultReconcileContext context;
    private final P primary;

    DependentsRun(DefaultReconcileContext context, P primary) {
        this.context = context;
        this.primary = primary;
    }

    DependentsResult run(Dependents<P> dependents) throws ApiException, InterruptedException {
        Map<String, Phase> phases = new HashMap<>();
        List<DependentState> states = new ArrayList<>();
        Map<String, Object> external = new HashMap<>();
        context.declareDependents(dependents);
        Exception failed = null;
        for (Dependent<P, ?> dependent : dependents.ordered()) {
            DependentState state;
            String blockedBy = blockedBy(dependent, phases);
            if (blockedBy != null) {
                state = new DependentState(dependent.name(), Phase.BLOCKED, 0, 0, 0, "waits for " + blockedBy);
            } else {
                try {
                    state = dependent.externalResource() != null ? reconcileExternal(dependent, external)
                            : reconcileObjects(kubernetes(dependent));
                } catch (ApiException | RuntimeException e) {
                    failed = failed == null ? e : failed;
                    state = new DependentState(dependent.name(), Phase.FAILED, 0, 0, 0, ApiErrors.describe(e));
                } catch (InterruptedException e) {
                    throw e;
                } catch (Exception e) {
                    IllegalStateException wrapped = new IllegalStateException("dependent " + dependent.name() + ": "
                            + e, e);
                    failed = failed == null ? wrapped : failed;
                    state = new DependentState(dependent.name(), Phase.FAILED, 0, 0, 0, e.toString());
                }
            }
            phases.put(dependent.name(), state.phase());
            states.add(state);
        }
        DependentsResult result = new DependentsResult(states, external);
        context.ranDependents(result);
        if (failed instanceof ApiException api) {
            throw api;
        }
        if (failed instanceof RuntimeException runtime) {
            throw runtime;
        }
        holdingUp(result);
        return result;
    }

    /**
     * Deletes what {@code dependents} made, last first: an external resource through its own delete, a Kubernetes
     * dependent's objects one by one. Stops at the first failure.
     */
    void delete(Dependents<P> dependents) throws Exception {
        List<Dependent<P, ?>> reversed = new ArrayList<>(dependents.ordered());
        Collections.reverse(reversed);
        for (Dependent<P, ?> dependent : reversed) {
            if (dependent.externalResource() != null) {
                dependent.externalResource().delete(primary, context);
            } else {
                for (KubernetesObject object : madeBy(kubernetes(dependent)).values()) {
                    context.delete(object);
                }
            }
        }
        context.forgetDependents();
    }

    @SuppressWarnings("unchecked")
    private static <P extends KubernetesObject> Dependent<P, KubernetesObject> kubernetes(Dependent<P, ?> dependent) {
        return (Dependent<P, KubernetesObject>) dependent;
    }

    /** Fetches the resource, then makes or changes it as desired, or deletes it when none is desired. */
    private <R> DependentState reconcileExternal(Dependent<P, R> dependent, Map<String, Object> external)
            throws Exception {
        var resource = dependent.externalResource();
        R actual = resource.fetch(primary).orElse(null);
        R desired = dependent.desired(primary, context).stream().findFirst().orElse(null);
        int applied = 0;
        int unchanged = 0;
        int deleted = 0;
        if (desired == null) {
            if (actual != null) {
                resource.delete(primary, context);
                actual = null;
                deleted++;
            }
        } else if (actual == null) {
            actual = Objects.requireNonNull(resource.create(primary, desired, context),
                    "dependent " + dependent.name() + ": create returned null");
            applied++;
        } else if (!resource.matches(actual, desired)) {
            actual = Objects.requireNonNull(resource.update(primary, actual, desired, context),
                    "dependent " + dependent.name() + ": update returned null");
            applied++;
        } else {
            unchanged++;
        }
        if (actual != null) {
            external.put(dependent.name(), actual);
        }
        if (dependent.pollInterval() != null) {
            context.poll(dependent, actual);
        }
        if (!dependent.isActive(primary)) {
            return new DependentState(dependent.name(), Phase.INACTIVE, 0, 0, deleted, null);
        }
        return actual == null || dependent.isReady(actual)
                ? new DependentState(dependent.name(), Phase.READY, applied, unchanged, deleted, null)
                : new DependentState(dependent.name(), Phase.NOT_READY, applied, unchanged, deleted,
                        "external " + dependent.type().getSimpleName() + " is not ready");
    }

    /** The first dependency of {@code dependent} that is neither ready nor inactive, as a phrase; else {@code null}. */
    private static String blockedBy(Dependent<?, ?> dependent, Map<String, Phase> phases) {
        for (String needed : dependent.dependsOn()) {
            Phase phase = phases.get(needed);
            if (phase != Phase.READY && phase != Phase.INACTIVE) {
                return needed + " (" + phase.name().toLowerCase(Locale.ROOT).replace('_', ' ') + ")";
            }
        }
        return null;
    }

    private Map<String, KubernetesObject> madeBy(Dependent<P, KubernetesObject> dependent) {
        Map<String, KubernetesObject> made = new HashMap<>();
        for (KubernetesObject object : context.owned(dependent.type())) {
            if (isMadeBy(object, dependent)) {
                made.put(object.getMetadata().getName(), object);
            }
        }
        return made;
    }

    private DependentState reconcileObjects(Dependent<P, KubernetesObject> dependent) throws ApiException {
        if (!context.serves(dependent.type())) {
            return new DependentState(dependent.name(), Phase.INACTIVE, 0, 0, 0,
                    "the server does not serve " + dependent.type().getSimpleName() + " yet");
        }
        Map<String, KubernetesObject> made = madeBy(dependent);
        Collection<KubernetesObject> desired = dependent.desired(primary, context);
        int applied = 0;
        int unchanged = 0;
        String notReady = null;
        Set<String> names = new HashSet<>();
        for (KubernetesObject object : desired) {
            V1ObjectMeta metadata = Objects.requireNonNull(object.getMetadata(), "a desired object without metadata");
            String name = Objects.requireNonNull(metadata.getName(), "a desired object without metadata.name");
            if (!names.add(name)) {
                throw new IllegalArgumentException("dependent " + dependent.name() + " desires two objects named "
                        + name);
            }
            Map<String, String> labels = new HashMap<>(metadata.getLabels() == null ? Map.of() : metadata.getLabels());
            labels.put(LABEL, dependent.name());
            metadata.setLabels(labels);
            context.own(object);
            KubernetesObject cached = made.get(name);
            KubernetesObject stored;
            if (cached != null && Containment.holds(ObjectWrites.tree(cached), desiredFields(object))) {
                stored = cached;
                unchanged++;
            } else {
                stored = context.apply(object);
                applied++;
            }
            if (notReady == null && !dependent.isReady(stored)) {
                notReady = name;
            }
        }
        int deleted = 0;
        for (KubernetesObject old : made.values()) {
            if (!names.contains(old.getMetadata().getName())) {
                context.delete(old);
                deleted++;
            }
        }
        if (!dependent.isActive(primary)) {
            return new DependentState(dependent.name(), Phase.INACTIVE, 0, 0, deleted, null);
        }
        return notReady == null ? new DependentState(dependent.name(), Phase.READY, applied, unchanged, deleted, null)
                : new DependentState(dependent.name(), Phase.NOT_READY, applied, unchanged, deleted,
                        dependent.type().getSimpleName() + " " + notReady + " is not ready");
    }

    private static boolean isMadeBy(KubernetesObject object, Dependent<?, ?> dependent) {
        Map<String, String> labels = object.getMetadata().getLabels();
        return labels != null && dependent.name().equals(labels.get(LABEL));
    }

    /** The fields of {@code desired} that an apply sends and that the stored copy must hold. */
    private static JsonObject desiredFields(KubernetesObject desired) {
        JsonObject fields = ObjectWrites.tree(desired);
        fields.remove("status");
        fields.remove("apiVersion");
        fields.remove("kind");
        JsonObject metadata = fields.getAsJsonObject("metadata");
        if (metadata != null) {
            metadata.remove("managedFields");
            metadata.remove("resourceVersion");
        }
        // A Secret's stringData is write-only: the server stores it in data, base64-encoded.
        JsonObject strings = fields.has("stringData") ? fields.remove("stringData").getAsJsonObject() : null;
        if (strings != null) {
            JsonObject data = fields.has("data") ? fields.getAsJsonObject("data") : new JsonObject();
            strings.entrySet().forEach(entry -> data.addProperty(entry.getKey(), Base64.getEncoder()
                    .encodeToString(entry.getValue().getAsString().getBytes(StandardCharsets.UTF_8))));
            fields.add("data", data);
        }
        return fields;
    }

    /**
     * With a dependent not ready, blocked or failed, the primary's {@code Ready=False} and {@code Reconciling=True}
     * name it, where the primary's status can hold conditions; the success's conditions are then left as set here.
     */
    private void holdingUp(DependentsResult result) throws ApiException, InterruptedException {
        DependentState holding = result.holdingUp().orElse(null);
        if (holding == null || !StatusConditions.shapeOf(primary).conditions()) {
            return;
        }
        String message = "dependent " + holding.name() + " is " + holding.phase().name().toLowerCase(Locale.ROOT)
                .replace('_', ' ') + (holding.reason() == null ? "" : ": " + holding.reason());
        context.updateConditions(context.latestPrimary(), conditions -> conditions
                .set(Conditions.READY, false, NOT_READY, message)
                .set(Conditions.RECONCILING, true, NOT_READY, message));
    }
}
