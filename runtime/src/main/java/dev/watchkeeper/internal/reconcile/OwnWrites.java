package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.api.ResourceVersions;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The versions a reconciler's own writes produced and its watchers have not delivered yet (docs/semantics.md §10).
 * Each write through the {@code ReconcileContext} (apply, status, conditions, the finalizer patches) is bracketed:
 * {@link #begin} before it is sent, {@link #end} with the server's answer. Two rules read them:
 * <ul>
 *   <li><b>No reconcile woken by its own write.</b> The event that brings exactly the version a write answered is
 *       that write coming back, and is let go once; any other version is someone else's change (or an older one
 *       arriving first) and queues as usual.</li>
 *   <li><b>Read your own writes.</b> Each written version is charged to a reader: the written object's own key when
 *       it is a primary, else the key whose reconcile wrote it (a child). {@link #awaitSeen} tells whether a reader
 *       still has versions its watchers have not delivered; once the last one is delivered (that version or a
 *       later one, or the object's deletion) the reader is woken.</li>
 * </ul>
 *
 * <p>A watch event can arrive before the answer of the write that caused it. An event for an object with a write in
 * flight is therefore held until the write ends: let go when it carries the answered version, queued otherwise (a
 * failed write queues every event it held). Only versions of objects of a kind the reconciler watches are kept (no
 * other would ever be delivered). "Later" is the API server's order of well-formed resourceVersions; where a version
 * cannot be ordered only the same version counts as delivered. A write whose event came first, or that changed
 * nothing (the server answered the version the cache held when the write began), is not kept.
 *
 * <p>Memory: one entry per object whose written version has not been delivered yet (dropped when it is, when the
 * object is deleted, or when its reader {@link #giveUp gives up} waiting), and the events held while a write is in
 * flight.
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

    /** A version written and not delivered yet, and the key whose next reconcile must see it. */
    private record Written(String version, ObjectKey reader) {
    }

    private final WatchedKinds watched;
    private final Map<String, Written> writtenByUid = new HashMap<>();
    /** Readers with versions not delivered yet: the uids of those objects. */
    private final Map<ObjectKey, Set<String>> unseenByReader = new HashMap<>();
    /** Readers whose reconcile waits for their versions, and what wakes each. */
    private final Map<ObjectKey, Runnable> waiting = new HashMap<>();
    private final Map<ObjectKey, InFlight> inFlight = new HashMap<>();

    /** Keeps nothing: the writes of a context outside a reconciler, which no watch event is matched against. */
    OwnWrites() {
        this(WatchedKinds.NONE);
    }

    /** Keeps the versions of objects {@code watched} includes. */
    OwnWrites(WatchedKinds watched) {
        this.watched = Objects.requireNonNull(watched, "watched");
    }

    /** A write of {@code key} is about to be sent. */
    synchronized void begin(ObjectKey key) {
        inFlight.computeIfAbsent(key, k -> new InFlight()).writes++;
    }

    /** The version of {@code object} its kind's cache holds now, {@code null} when none does: a write's "before". */
    String cachedVersion(KubernetesObject object) {
        return watched.includes(object) ? watched.cachedVersion(object) : null;
    }

    /**
     * The write of {@code key}, made by the reconcile of {@code reconciling} ({@code null} when that is {@code key}
     * itself), ended with {@code answer} ({@code null} when it failed), the cache having held version
     * {@code cachedBefore} of it when the write began: records the version it answered, lets a held event of that
     * version go, and queues the other held events once no write is in flight.
     */
    void end(ObjectKey key, KubernetesObject answer, ObjectKey reconciling, String cachedBefore) {
        V1ObjectMeta metadata = answer == null ? null : answer.getMetadata();
        String uid = metadata == null ? null : metadata.getUid();
        String version = metadata == null ? null : metadata.getResourceVersion();
        List<Runnable> toRun = new ArrayList<>();
        synchronized (this) {
            InFlight writes = inFlight.get(key);
            boolean cameBack = false;
            if (writes != null) {
                cameBack = writes.held.removeIf(held -> held.uid().equals(uid)
                        && held.resourceVersion().equals(version));
                if (--writes.writes == 0) {
                    inFlight.remove(key);
                    writes.held.forEach(held -> toRun.add(held.queue()));
                }
            }
            if (uid != null && version != null && watched.includes(answer)) {
                if (cameBack || version.equals(cachedBefore)) {
                    // delivered before its answer, or a write that changed nothing: the cache held it already.
                    // A cache that holds it only now is not enough: its event may still be on its way to
                    // handled, which must then let it go, not queue it.
                    delivered(uid, version, toRun);
                } else {
                    ObjectKey reader = reconciling == null || watched.isPrimary(answer) ? key : reconciling;
                    record(uid, new Written(version, reader), toRun);
                }
            }
        }
        toRun.forEach(Runnable::run); // outside the lock: queueing may map and decode
    }

    /**
     * A watch event brought version {@code resourceVersion} of the object {@code uid} under {@code key}: returns true
     * when it is one of our writes coming back (let go) or is held until a write in flight ends ({@code queue} then
     * runs unless it came back); false when the caller queues as usual.
     */
    boolean handled(ObjectKey key, String uid, String resourceVersion, Runnable queue) {
        if (uid == null || resourceVersion == null) {
            return false;
        }
        List<Runnable> toRun = new ArrayList<>();
        boolean handled;
        synchronized (this) {
            Written written = writtenByUid.get(uid);
            boolean cameBack = written != null && written.version().equals(resourceVersion);
            delivered(uid, resourceVersion, toRun);
            InFlight writes = inFlight.get(key);
            if (cameBack) {
                handled = true;
            } else if (writes != null) {
                writes.held.add(new Held(uid, resourceVersion, Objects.requireNonNull(queue, "queue")));
                handled = true;
            } else {
                handled = false;
            }
        }
        toRun.forEach(Runnable::run);
        return handled;
    }

    /**
     * A watch event brought version {@code resourceVersion} of the object {@code uid} and queues nothing (a trigger
     * filter let it pass by): it still counts as delivered.
     */
    void seen(String uid, String resourceVersion) {
        if (uid == null || resourceVersion == null) {
            return;
        }
        List<Runnable> toRun = new ArrayList<>();
        synchronized (this) {
            delivered(uid, resourceVersion, toRun);
        }
        toRun.forEach(Runnable::run);
    }

    /** The object {@code uid} is gone: its entry too. */
    void forget(String uid) {
        if (uid == null) {
            return;
        }
        List<Runnable> toRun = new ArrayList<>();
        synchronized (this) {
            Written written = writtenByUid.remove(uid);
            if (written != null) {
                unseen(written.reader(), uid, toRun);
            }
        }
        toRun.forEach(Runnable::run);
    }

    /**
     * Whether {@code reader} has written versions its watchers have not delivered yet. If it has, it waits:
     * {@code wake} runs once they all are (or are deleted), unless it {@link #giveUp gives up} first.
     */
    synchronized boolean awaitSeen(ObjectKey reader, Runnable wake) {
        if (!unseenByReader.containsKey(reader)) {
            waiting.remove(reader);
            return false;
        }
        waiting.put(reader, Objects.requireNonNull(wake, "wake"));
        return true;
    }

    /**
     * {@code reader} stops waiting and forgets its versions not delivered yet: when they come, they queue as anyone
     * else's change would.
     */
    synchronized void giveUp(ObjectKey reader) {
        waiting.remove(reader);
        Set<String> uids = unseenByReader.remove(reader);
        if (uids != null) {
            uids.forEach(writtenByUid::remove);
        }
    }

    /** Keys whose reconcile waits for their versions now. */
    synchronized int waitingCount() {
        return waiting.size();
    }

    private void record(String uid, Written written, List<Runnable> toRun) {
        Written replaced = writtenByUid.put(uid, written);
        if (replaced != null && !replaced.reader().equals(written.reader())) {
            unseen(replaced.reader(), uid, toRun);
        }
        unseenByReader.computeIfAbsent(written.reader(), r -> new HashSet<>()).add(uid);
    }

    /** Version {@code version} of {@code uid} was delivered: an entry of it or an earlier version is seen. */
    private void delivered(String uid, String version, List<Runnable> toRun) {
        Written written = writtenByUid.get(uid);
        if (written != null && ResourceVersions.isAtLeast(version, written.version())) {
            writtenByUid.remove(uid);
            unseen(written.reader(), uid, toRun);
        }
    }

    /** {@code uid} no longer counts for {@code reader}: wakes it once nothing does. */
    private void unseen(ObjectKey reader, String uid, List<Runnable> toRun) {
        Set<String> uids = unseenByReader.get(reader);
        if (uids == null || !uids.remove(uid) || !uids.isEmpty()) {
            return;
        }
        unseenByReader.remove(reader);
        Runnable wake = waiting.remove(reader);
        if (wake != null) {
            toRun.add(wake);
        }
    }
}
