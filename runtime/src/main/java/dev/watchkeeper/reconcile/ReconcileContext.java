package dev.watchkeeper.reconcile;

import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.store.Store;
import io.kubernetes.client.openapi.ApiException;
import java.util.List;
import java.util.function.Consumer;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;

/**
 * What a reconcile may know besides the object: which key, which attempt, the API client, and the caches of the
 * reconciler's watched resources. Declare it as a parameter of a {@code @Reconciler} method.
 *
 * <pre>{@code
 * @Reconciler(owns = V1ConfigMap.class)
 * ReconcileResult reconcile(ConfigMapGenerator generator, ReconcileContext context) {
 *     List<V1ConfigMap> owned = context.owned(V1ConfigMap.class);
 *     ...
 * }
 * }</pre>
 */
public interface ReconcileContext {

    /** The key being reconciled. */
    ObjectKey key();

    /** 1 for the first try, 2 for the first retry after an error, and so on. */
    int attempt();

    /** The client the reconciler's watchers use; write through it. */
    ApiClient apiClient();

    /**
     * The store of the reconciler's watcher for {@code type} (the primary or a secondary resource).
     *
     * @throws IllegalArgumentException when the reconciler watches no such type
     */
    <S extends KubernetesObject> Store<S> store(Class<S> type);

    /**
     * The cached objects of {@code type} the reconciled object controls (their ownerReference with
     * {@code controller: true} has its uid), ordered by namespace and name: read from the owner index of
     * {@link #store(Class) store(type)}, so it costs what it returns, not what the store holds. For the primary's own
     * type (a ConfigMap that owns ConfigMaps), from the store of the reconciler's owned watcher of that type.
     *
     * @throws IllegalArgumentException when the reconciler watches no such type
     */
    <S extends KubernetesObject> List<S> owned(Class<S> type);

    /**
     * Records a Kubernetes Event about the reconciled object ({@code type} {@code Normal} or {@code Warning}), with
     * the reason as its action: {@code events.k8s.io} requires an action, and a reason such as {@code InvalidSpec}
     * or {@code CleanedUp} already says what was done or failed; {@link #publishEvent(String, String, String,
     * String)} sets one of its own.
     */
    default void publishEvent(String type, String reason, String message) {
        publishEvent(type, reason, reason, message);
    }

    /**
     * Records a Kubernetes Event about the reconciled object, as an {@code events.k8s.io/v1} Event (a core/v1 Event
     * where the server does not serve that group) reported by {@code <spring.application.name>/<reconciler>}. It
     * only queues the Event and never waits: a thread of its own writes it. Repeats (same type, reason, action and
     * note) within minutes become one Event whose {@code series} counts them, and an object gets at most 25 new
     * Events at once, then one per 5 minutes, as Kubernetes' own controllers do (docs/semantics.md §16).
     * Failures to record are logged and counted, never thrown: an Event is not worth failing a reconcile for.
     *
     * @param type   {@code Normal} or {@code Warning}
     * @param reason why, in UpperCamelCase: {@code InvalidSpec}
     * @param action what was done or failed, in UpperCamelCase: {@code Reconcile}, {@code CreateConfigMap}
     * @param note   the human-readable message (cut to 1 KiB)
     */
    void publishEvent(String type, String reason, String action, String note);

    /**
     * Server-side apply of {@code object} ({@code PATCH application/apply-patch+yaml}) with this reconciler's name as
     * field manager, taking over fields other managers hold ({@code force=true}). The object must name itself
     * (metadata name, and namespace when namespaced); {@code apiVersion} and {@code kind} come from it, else from
     * its model class. {@code managedFields}, {@code resourceVersion} and {@code status} are never sent.
     *
     * @return the object as the server stored it
     */
    <S extends KubernetesObject> S apply(S object) throws ApiException;

    /** {@link #apply} after making the reconciled object the controller owner of {@code child}. */
    <S extends KubernetesObject> S applyOwned(S child) throws ApiException;

    /**
     * Reconciles the reconciled object's {@code dependents} (docs/reconcilers.md, "Dependents"): in their order, each
     * whose dependencies are ready is applied as this object's controller with server-side apply, object by object,
     * and not at all where the cached copy already holds every field the desired object sets (so an unchanged desired
     * state sends no request, and a field someone else changed is put back); objects a dependent no longer desires,
     * or all of an inactive one's, are deleted. When one is not ready or blocked, this object's {@code Ready=False}
     * and {@code Reconciling=True} conditions name it (where its status holds conditions). Each dependent's type must
     * be among the reconciler's owned types, whose caches it reads. An {@link Dependent#external external} one is
     * fetched, and created or updated through its {@link ExternalResource}.
     *
     * @return each dependent's outcome; a reconcile may go on with it
     * @throws ApiException the first failed apply or delete, after the dependents that did not wait for it ran (an
     *                      external resource's checked exception comes wrapped in an {@link IllegalStateException}
     *                      that names the dependent)
     */
    default <P extends KubernetesObject> DependentsResult reconcileDependents(Dependents<P> dependents)
            throws ApiException, InterruptedException {
        throw new UnsupportedOperationException(getClass().getName() + " cannot reconcile dependents");
    }

    /**
     * Deletes what the reconciled object's {@code dependents} made, in the reverse of their order: each external
     * resource through its {@link ExternalResource#delete}, and each Kubernetes dependent's objects, so nothing waits
     * for the garbage collector and each goes before those it depends on. Called from a
     * cleanup, under the reconciler's finalizer; stops at the first failure, so the cleanup
     * is retried with the rest still in place.
     */
    default <P extends KubernetesObject> void deleteDependents(Dependents<P> dependents)
            throws ApiException, InterruptedException {
        throw new UnsupportedOperationException(getClass().getName() + " cannot delete dependents");
    }

    /**
     * Deletes {@code object} if it is still the one read (its {@code uid} as a precondition), in the background: its
     * own dependents are left to the garbage collector. An object already gone, or deleted and made again under its
     * name meanwhile, counts as done. Through the same budget and {@code Retry-After} rule as every write here.
     */
    default <S extends KubernetesObject> void delete(S object) throws ApiException {
        throw new UnsupportedOperationException(getClass().getName() + " cannot delete");
    }

    /**
     * Changes the status of {@code object} with {@code mutator} and writes it through the status subresource with
     * the object's resourceVersion; on 409 Conflict it reads the object again, applies {@code mutator} to the fresh
     * copy and retries (5 attempts, 10 ms apart, as client-go's {@code retry.DefaultRetry}). When the mutator
     * leaves the status as it was, nothing is written, so a reconciler does not wake itself.
     *
     * <pre>{@code
     * context.updateStatus(generator, g -> g.getStatus().setObservedGeneration(g.getMetadata().getGeneration()));
     * }</pre>
     *
     * @return the object as stored after the write, or as given when nothing changed
     */
    <S extends KubernetesObject> S updateStatus(S object, Consumer<S> mutator)
            throws ApiException, InterruptedException;

    /**
     * Edits the {@code status.conditions} of the reconciled object ({@code object}: it, or a copy of it written
     * since) and writes them as {@link #updateStatus} does: conflict-safe, and nothing written when nothing
     * changed. Works on any object whose class holds a {@code metav1.Condition}-shaped list at
     * {@code status.conditions}: a client-java model, a custom class or a {@code DynamicKubernetesObject}.
     *
     * <p>{@code status.observedGeneration} and each set condition's {@code observedGeneration} become the
     * generation of the object this reconcile was handed, never that of a newer copy: after a conflict the edit runs
     * again on a fresh read, which may already carry a spec this reconcile did not see. A class without such a field
     * does not get it (a model holding {@code V1DeploymentCondition}s, say, has no generation per condition). A
     * reconcile that sets {@link Conditions#READY Ready} here keeps it: the condition Watchkeeper writes after a
     * successful reconcile (docs/semantics.md, "Status conditions") is then left as set.
     *
     * <p>A method here rather than a helper on the object: only the context knows the generation it was handed, and
     * writes through it are recorded as this reconciler's own, so their watch events do not wake it.
     *
     * <pre>{@code
     * context.updateConditions(generator, conditions -> conditions
     *         .set(Conditions.READY, true, "Synced", count + " ConfigMaps up to date"));
     * }</pre>
     *
     * @return the object as stored after the write, or as given when nothing changed
     * @throws IllegalArgumentException when {@code object} is not the reconciled object, or its class holds no
     *                                  conditions list
     */
    <S extends KubernetesObject> S updateConditions(S object, Consumer<Conditions> edit)
            throws ApiException, InterruptedException;
}
