package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.Dependent;
import dev.watchkeeper.reconcile.Dependents;
import dev.watchkeeper.reconcile.DependentsResult;
import dev.watchkeeper.reconcile.Conditions;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.events.EventRecorder;
import dev.watchkeeper.internal.events.Occurrence;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.store.Store;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ReconcileContext} a {@link Reconciler} hands to each reconcile. Events go to the registry's
 * {@link EventRecorder}, reported by {@code <application>/<reconciler>}.
 *
 * <pre>{@code
 * context.publishEvent("Warning", "InvalidSpec", "spec.replicas must not be negative");
 * }</pre>
 */
public final class DefaultReconcileContext implements ReconcileContext {

    private static final Logger log = LoggerFactory.getLogger(DefaultReconcileContext.class);

    private final String reconciler;
    private final ObjectKey key;
    private final int attempt;
    private final ApiClient apiClient;
    private final ResourceType<?> primaryType;
    private final KubernetesObject primary;
    private final Map<Class<?>, Store<?>> stores;
    /** The store of a secondary watcher of the primary's own type, whose owner index holds its children; or null. */
    private final Store<?> ownedOfPrimaryType;
    private final TimeSource time;
    private final OwnWrites ownWrites;
    /** {@code null}: Events are dropped, with a warning. */
    private final EventRecorder events;
    private final WriteBudget writeBudget;
    private final DependentStats dependentStats;
    /** {@code null}: external dependents are not polled. */
    private final ExternalPolls polls;
    /** Condition types set or removed through {@link #updateConditions}; a reconcile may write from threads. */
    private final Set<String> touched = ConcurrentHashMap.newKeySet();
    private volatile KubernetesObject latest;

    /**
     * A context on its own, outside a reconciler: its writes are not matched against any watch events, and it
     * records no Events.
     *
     * @param stores the reconciler's stores by Java type; where two watchers share a type, the primary's wins
     */
    public DefaultReconcileContext(String reconciler, ObjectKey key, int attempt, ApiClient apiClient,
            ResourceType<?> primaryType, KubernetesObject primary, Map<Class<?>, Store<?>> stores, TimeSource time) {
        this(reconciler, key, attempt, apiClient, primaryType, primary, stores, null, time, new OwnWrites(), null,
                WriteBudget.none(), new DependentStats(), null);
    }

    /**
     * A reconciler's context: its writes are recorded in {@code ownWrites}, so their events queue nothing, and
     * take their tokens from {@code writeBudget}; its Events go to {@code events}; its dependents' runs are recorded
     * in {@code dependentStats}, and their external resources polled by {@code polls}.
     */
    DefaultReconcileContext(String reconciler, ObjectKey key, int attempt, ApiClient apiClient,
            ResourceType<?> primaryType, KubernetesObject primary, Map<Class<?>, Store<?>> stores,
            Store<?> ownedOfPrimaryType, TimeSource time, OwnWrites ownWrites, EventRecorder events,
            WriteBudget writeBudget, DependentStats dependentStats, ExternalPolls polls) {
        this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
        this.key = Objects.requireNonNull(key, "key");
        this.attempt = attempt;
        this.apiClient = apiClient;
        this.primaryType = Objects.requireNonNull(primaryType, "primaryType");
        this.primary = Objects.requireNonNull(primary, "primary");
        this.stores = Map.copyOf(stores);
        this.ownedOfPrimaryType = ownedOfPrimaryType;
        this.time = Objects.requireNonNull(time, "time");
        this.ownWrites = Objects.requireNonNull(ownWrites, "ownWrites");
        this.events = events;
        this.writeBudget = Objects.requireNonNull(writeBudget, "writeBudget");
        this.dependentStats = Objects.requireNonNull(dependentStats, "dependentStats");
        this.polls = polls;
    }

    @Override
    public ObjectKey key() {
        return key;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public ApiClient apiClient() {
        return apiClient;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <S extends KubernetesObject> Store<S> store(Class<S> type) {
        Store<?> store = stores.get(type);
        if (store == null) {
            throw new IllegalArgumentException("reconciler " + reconciler + " watches no " + type.getName()
                    + "; it watches " + stores.keySet().stream().map(Class::getSimpleName).sorted().toList());
        }
        return (Store<S>) store;
    }

    @Override
    public <S extends KubernetesObject> List<S> owned(Class<S> type) {
        String uid = primary.getMetadata() == null ? null : primary.getMetadata().getUid();
        return uid == null ? List.of() : ownedStore(type).listByOwner(uid);
    }

    /**
     * Whether the owned watcher of {@code type} has listed it: false only for a type declared owned when served
     * that the server does not serve yet, since the reconciler waits for every other store.
     */
    boolean serves(Class<? extends KubernetesObject> type) {
        return ownedStore(type).ready().isDone();
    }

    @SuppressWarnings("unchecked")
    private <S extends KubernetesObject> Store<S> ownedStore(Class<S> type) {
        // A ConfigMap that owns ConfigMaps: its children are in the owned watcher's store, not the primary's.
        return ownedOfPrimaryType != null && type.equals(primaryType.javaType())
                ? (Store<S>) ownedOfPrimaryType : store(type);
    }

    @Override
    public void publishEvent(String type, String reason, String action, String note) {
        if (events == null) {
            log.warn("reconciler {} has no event recorder; dropped the Event {} {} about {}", reconciler, type, reason,
                    key);
            return;
        }
        events.record(regarding(), reconciler, type, reason, action, note);
    }

    @Override
    public <S extends KubernetesObject> S apply(S object) throws ApiException {
        return written(writes().apply(object));
    }

    @Override
    public <S extends KubernetesObject> S applyOwned(S child) throws ApiException {
        own(child);
        return writes().apply(child);
    }

    @Override
    public <P extends KubernetesObject> DependentsResult reconcileDependents(Dependents<P> dependents)
            throws ApiException, InterruptedException {
        return runFor(dependents).run(dependents);
    }

    @Override
    public <P extends KubernetesObject> void deleteDependents(Dependents<P> dependents)
            throws ApiException, InterruptedException {
        try {
            runFor(dependents).delete(dependents);
        } catch (ApiException | InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("deleting the dependents of " + key + ": " + e, e);
        }
    }

    private <P extends KubernetesObject> DependentsRun<P> runFor(Dependents<P> dependents) {
        if (!dependents.primaryType().isInstance(primary)) {
            throw new IllegalArgumentException("dependents of " + dependents.primaryType().getName() + " cannot run for "
                    + key + ", a " + primary.getClass().getName());
        }
        return new DependentsRun<>(this, dependents.primaryType().cast(primary));
    }

    void declareDependents(Dependents<?> dependents) {
        dependentStats.declared(dependents);
    }

    void ranDependents(DependentsResult result) {
        dependentStats.ran(key, result);
    }

    /** Polls {@code dependent}'s resource for this key from now on, {@code actual} as its last state known. */
    void poll(Dependent<?, ?> dependent, Object actual) {
        if (polls != null) {
            polls.reconciled(key, dependent, actual);
        }
    }

    /** This key's dependents are deleted: neither polled nor held up any more. */
    void forgetDependents() {
        if (polls != null) {
            polls.forget(key);
        }
        dependentStats.forget(key);
    }

    /** Makes the reconciled object the controller owner of {@code child}. */
    void own(KubernetesObject child) {
        ObjectWrites.own(child, primary, primaryType);
    }

    @Override
    public <S extends KubernetesObject> void delete(S object) throws ApiException {
        writes().delete(object);
    }

    @Override
    public <S extends KubernetesObject> S updateStatus(S object, Consumer<S> mutator)
            throws ApiException, InterruptedException {
        return written(writes().updateStatus(object, mutator));
    }

    @Override
    public <S extends KubernetesObject> S updateConditions(S object, Consumer<Conditions> edit)
            throws ApiException, InterruptedException {
        Objects.requireNonNull(edit, "edit");
        if (!isPrimary(object)) {
            throw new IllegalArgumentException("updateConditions edits the reconciled object " + key + ", not "
                    + (object == null ? "null" : ObjectKey.of(object)));
        }
        Long generation = primary.getMetadata() == null ? null : primary.getMetadata().getGeneration();
        return written(writes().rewriteStatus(object,
                json -> StatusConditions.edited(json, object, generation, time.clock(), edit, touched)));
    }

    /**
     * The condition types this context's {@link #updateConditions} set or removed, so the conditions written after
     * the reconcile leave the user's {@code Ready} alone.
     */
    Set<String> conditionsTouched() {
        return Set.copyOf(touched);
    }

    /**
     * The newest copy of the reconciled object this context knows: the latest one a write through it answered,
     * else the one it was handed. Writes after the reconcile start from it, so they do not conflict with the
     * reconcile's own.
     */
    KubernetesObject latestPrimary() {
        KubernetesObject written = latest;
        return written != null ? written : primary;
    }

    /** Remembers {@code answer} when it is the reconciled object. */
    private <S extends KubernetesObject> S written(S answer) {
        if (answer != null && isPrimary(answer)) {
            latest = answer;
        }
        return answer;
    }

    /** Whether {@code object} is the reconciled object: its uid, or its key where either has no uid. */
    private boolean isPrimary(KubernetesObject object) {
        if (object == null || object.getMetadata() == null) {
            return false;
        }
        String uid = primary.getMetadata() == null ? null : primary.getMetadata().getUid();
        String other = object.getMetadata().getUid();
        return uid != null && other != null ? uid.equals(other) : key.equals(ObjectKey.of(object));
    }

    private ObjectWrites writes() {
        return new ObjectWrites(apiClient, reconciler, primaryType, time, ownWrites, key, writeBudget);
    }

    /** The reconciled object, as its Events name it. */
    Occurrence.Regarding regarding() {
        V1ObjectMeta metadata = primary.getMetadata();
        return new Occurrence.Regarding(
                primary.getApiVersion() != null ? primary.getApiVersion() : primaryType.apiVersion(),
                primary.getKind() != null ? primary.getKind() : primaryType.kind(),
                key.namespace(), key.name(), metadata == null ? null : metadata.getUid());
    }
}
