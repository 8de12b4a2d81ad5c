package dev.watchkeeper.reconcile;

import io.kubernetes.client.common.KubernetesObject;
import java.util.Objects;
import java.util.Optional;

/**
 * A resource outside Kubernetes that a primary owns, behind an {@link Dependent#external external dependent}: its
 * state as a value of {@code R} (a record, compared with {@code equals} unless {@link #matches} says otherwise), read
 * and changed through whatever client it has. Each reconcile fetches the actual state, creates the resource when it
 * is absent, and updates it when it does not match; the primary's cleanup deletes it
 * ({@link ReconcileContext#deleteDependents}). Every method must be safe to call again after a failure: a throw
 * fails the reconcile, which is retried with the object's backoff.
 *
 * <pre>{@code
 * record Schema(String name, String characterSet) {}
 *
 * ExternalResource<MySqlSchema, Schema> schemas = new ExternalResource<>() {
 *     public Schema desired(MySqlSchema primary, ReconcileContext context) { ... }
 *     public Optional<Schema> fetch(MySqlSchema primary) throws Exception { return database.schema(name(primary)); }
 *     public Schema create(MySqlSchema primary, Schema desired, ReconcileContext context) throws Exception { ... }
 *     public void delete(MySqlSchema primary, ReconcileContext context) throws Exception { ... }
 * };
 * }</pre>
 *
 * @param <P> the primary's type
 * @param <R> the resource's state
 */
public interface ExternalResource<P extends KubernetesObject, R> {

    /** The state the resource should have for {@code primary}; {@code null}: none should exist. */
    R desired(P primary, ReconcileContext context);

    /** The resource's actual state for {@code primary}, empty when it does not exist. */
    Optional<R> fetch(P primary) throws Exception;

    /** Makes the resource for {@code primary} as {@code desired}; returns its state as made. */
    R create(P primary, R desired, ReconcileContext context) throws Exception;

    /**
     * Changes the resource from {@code actual} to {@code desired}; returns its state as changed. By default it is
     * left as it is: a resource that can only be made (the state as made is kept).
     */
    default R update(P primary, R actual, R desired, ReconcileContext context) throws Exception {
        return actual;
    }

    /** Whether {@code actual} is as desired, so nothing is updated: by default, they are equal. */
    default boolean matches(R actual, R desired) {
        return Objects.equals(actual, desired);
    }

    /** Deletes the resource for {@code primary}; nothing to do when it is already gone. */
    void delete(P primary, ReconcileContext context) throws Exception;
}
