package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The versions a reconciler's own writes produced, so that their watch events do not queue a reconcile that has
 * nothing left to do (docs/semantics.md §10). Each write through the {@code ReconcileContext} (apply, status, the
 * finalizer patches) is bracketed: {@link #begin} before it is sent, {@link #end} with the server's answer. The event
 * that brings exactly the version a write answered is that write coming back, and is let go once; any other version
 * is someone else's change (or an older one arriving first) and queues as usual.
 *
 * <p>A watch event can arrive before the answer of the write that caused it. An event for an object with a write in
 * flight is therefore held until the write ends: let go when it carries the answered version, queued otherwise (a
 * failed write queues every event it held). resourceVersions are compared for equality only, never ordered, so this
 * holds on every API server; one etcd revision never names two objects, so holding by namespace/name alone (not by
 * type) cannot let another object's event go.
 *
 * <p>Memory: one entry per object whose written version has not come back yet (dropped when it comes, when the next
 * write replaces it, or when the object is deleted), and the events held while a write is in flight.
 */
final class OwnWrites {

    /** An event held while a write of its object is in flight. */
    private record Held(String uid, String resourceVersion, Runnable queue) {
    }

    /** Writes in flight of one object and the events held meanwhile. */
    private static final class InFlight {
        int writes;
        final List<Held> held = new ArrayList<>();
    }

    private final Map<String, String> versionByUid = new HashMap<>();
    private final Map<ObjectKey, InFlight> inFlight = new HashMap<>();

    /** A write of {@code key} is about to be sent. */
    synchronized void begin(ObjectKey key) {
        inFlight.computeIfAbsent(key, k -> new InFlight()).writes++;
    }

    /**
     * The write of {@code key} ended with {@code answer} ({@code null} when it failed): records the version it
     * answered, lets a held event of that version go, and queues the other held events once no write is in flight.
     */
    void end(ObjectKey key, KubernetesObject answer) {
        V1ObjectMeta metadata = answer == null ? null : answer.getMetadata();
        String uid = metadata == null ? null : metadata.getUid();
        String version = metadata == null ? null : metadata.getResourceVersion();
        List<Runnable> toQueue = new ArrayList<>();
        synchronized (this) {
            InFlight writes = inFlight.get(key);
            boolean cameBack = false;
            if (writes != null) {
                cameBack = writes.held.removeIf(held -> held.uid().equals(uid)
                        && held.resourceVersion().equals(version));
                if (--writes.writes == 0) {
                    inFlight.remove(key);
                    writes.held.forEach(held -> toQueue.add(held.queue()));
                }
            }
            if (uid != null && version != null && !cameBack) {
                versionByUid.put(uid, version);
            }
        }
        toQueue.forEach(Runnable::run); // outside the lock: queueing may map and decode
    }

    /**
     * A watch event brought version {@code resourceVersion} of the object {@code uid} under {@code key}: returns true
     * when it is one of our writes coming back (let go) or is held until a write in flight ends ({@code queue} then
     * runs unless it came back); false when the caller queues as usual.
     */
    synchronized boolean handled(ObjectKey key, String uid, String resourceVersion, Runnable queue) {
        if (uid == null || resourceVersion == null) {
            return false;
        }
        if (versionByUid.remove(uid, resourceVersion)) {
            return true;
        }
        InFlight writes = inFlight.get(key);
        if (writes != null) {
            writes.held.add(new Held(uid, resourceVersion, Objects.requireNonNull(queue, "queue")));
            return true;
        }
        return false;
    }

    /** The object {@code uid} is gone: its entry too. */
    synchronized void forget(String uid) {
        if (uid != null) {
            versionByUid.remove(uid);
        }
    }
}
