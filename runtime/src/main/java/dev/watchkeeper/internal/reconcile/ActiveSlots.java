package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.concurrent.DaemonThreads;
import dev.watchkeeper.internal.shard.ShardParticipant;
import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.internal.shard.UidHash;
import dev.watchkeeper.internal.store.CacheStore;
import dev.watchkeeper.internal.text.Plural;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.WatcherGroup;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slots a sharded {@link Reconciler} reconciles now, and the reconciles running in them (docs/sharding.md).
 * A worker asks {@link #admit} before each reconcile: the key's object is looked up in the primary stores without
 * decoding, and its uid's slot must be active, or the key is dropped and forgotten. {@link #narrow} gives slots up
 * and drains their running reconciles, interrupting them after the grace; {@link #widen} takes slots up and queues
 * the objects they hold. {@link #participant} hands both to the replica's shard coordinator.
 *
 * <p>Admitting and narrowing hold this object's lock, so a reconcile either is admitted before a narrow and drained
 * by it, or sees the narrowed slots and is dropped: none of a given-up slot starts after {@link #narrow} returns.
 */
final class ActiveSlots<T extends KubernetesObject> {

    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

    /** A reconcile admitted for the object {@code uid} in {@code slot}, running on {@code thread}. */
    static final class Admitted {
        final ObjectKey key;
        final String uid;
        final int slot;
        final Thread thread;
        /** The fields below are guarded by the {@link ActiveSlots}' lock. */
        boolean finished;
        boolean interrupted;
        boolean stuck;

        private Admitted(ObjectKey key, String uid, int slot, Thread thread) {
            this.key = key;
            this.uid = uid;
            this.slot = slot;
            this.thread = thread;
        }
    }

    private final String name;
    private final List<CacheStore<T>> stores;
    private final EventKeys<T> eventKeys;
    private final TimeSource time;
    private final Duration grace;
    private final Duration afterInterrupt;
    /** Guarded by this object's lock. */
    private final Set<Admitted> running = new HashSet<>();
    /** Written under this object's lock; read without it where a stale value only delays a decision. */
    private volatile Slots active = Slots.none();
    /**
     * The slots the primary watchers were last {@link #assign assigned}, guarded by this object's lock; all until
     * the first assign, since a watcher never resharded is not filtered by slot.
     */
    private Slots watched = Slots.all();

    /**
     * @param grace          how long a narrow lets a running reconcile of a given-up slot finish before interrupting it
     * @param afterInterrupt how long it waits after the interrupt before it reports the reconcile as stuck
     */
    ActiveSlots(String name, WatcherGroup<T> primary, EventKeys<T> eventKeys, TimeSource time, Duration grace,
            Duration afterInterrupt) {
        this.name = name;
        this.stores = primary.members().stream().map(ActiveSlots::cacheStore).toList();
        this.eventKeys = eventKeys;
        this.time = time;
        this.grace = grace;
        this.afterInterrupt = afterInterrupt;
    }

    /** The slot of an object's uid; an object without one (never from an API server) hashes as the empty string. */
    static int slotOf(String uid) {
        return Slots.slotOf(UidHash.of(uid == null ? "" : uid));
    }

    /**
     * Admits a reconcile of {@code key} on the calling thread when its object lies in an active slot; otherwise (or
     * when the object is gone) forgets the key and returns {@code null}. An admitted reconcile must be
     * {@link #finish finished}.
     *
     * <p>An object that left the primary watcher carrying the finalizer ({@link EventKeys#leftWithFinalizer}) is
     * placed by the uid it left with. Its slot must also be one the watchers were last {@link #assign assigned}:
     * one assigned away (its watcher relists without it before the coordinator narrows) is its new owner's, and is
     * forgotten here. One whose slot is assigned but not yet active is kept for the {@link #widen} that takes it.
     */
    Admitted admit(ObjectKey key) {
        CachedObject<T> cached = cached(key);
        CachedObject<T> left = cached == null ? eventKeys.leftWithFinalizer(key) : null;
        CachedObject<T> placed = cached != null ? cached : left;
        if (placed != null) {
            String uid = placed.uid();
            Admitted admitted = new Admitted(key, uid, slotOf(uid), Thread.currentThread());
            synchronized (this) {
                boolean owned = left == null || watched.has(admitted.slot);
                if (owned && active.has(admitted.slot)) {
                    running.add(admitted);
                    return admitted;
                }
                if (owned) {
                    return null; // left with the finalizer in a slot not yet active: widen queues it again
                }
            }
        }
        eventKeys.forget(key); // not this replica's to reconcile now (or gone): no failure or filter memory is kept
        return null;
    }

    /**
     * The primary watchers hold {@code slots} from now on; called before they are told, so an object that leaves
     * them by it is already placed outside. Forgets the objects that left carrying the finalizer in other slots.
     */
    void assign(Slots slots) {
        synchronized (this) {
            watched = slots;
        }
        eventKeys.forgetLeftIf(uid -> !slots.has(slotOf(uid)));
    }

    /** Whether {@code admitted}'s slot is still active: a reconcile that throws once it is not was cut short. */
    boolean isActive(Admitted admitted) {
        return active.has(admitted.slot);
    }

    /**
     * Ends an admitted reconcile, on its worker's thread. An interrupt a drain sent it was for that reconcile only,
     * so it is cleared here and the worker takes on.
     */
    void finish(Admitted admitted) {
        boolean interrupted;
        synchronized (this) {
            running.remove(admitted);
            admitted.finished = true;
            interrupted = admitted.interrupted;
            notifyAll();
        }
        if (interrupted) {
            Thread.interrupted();
        }
    }

    /**
     * From now on admits keys of {@code slots} only; the future completes, on a thread of its own, once no reconcile
     * of another slot runs. Those still running after the grace are interrupted; one that ignores its interrupt is
     * logged, shown in {@link #stuckKeys}, and keeps the future pending until it returns, since its slot may be
     * another replica's by then. Never blocks.
     */
    CompletableFuture<Void> narrow(Slots slots) {
        List<Admitted> draining;
        Slots gaveUp;
        synchronized (this) {
            gaveUp = active.minus(slots);
            active = slots;
            draining = running.stream().filter(admitted -> !slots.has(admitted.slot)).toList();
        }
        log.info("reconciler {}: reconciling the slots {}, gave up {}; {} to drain", name, slots, gaveUp,
                Plural.count(draining.size(), "running reconcile"));
        if (draining.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> drained = new CompletableFuture<>();
        Thread drain = DaemonThreads.newThread(() -> drain(draining, drained));
        drain.setName("watchkeeper-" + name + "-drain");
        drain.start();
        return drained;
    }

    /**
     * Admits keys of {@code slots}, which must hold every active slot, and queues the primaries of the slots gained
     * (not a full resync), and the objects that left the watchers carrying the finalizer in them.
     *
     * @throws IllegalArgumentException when {@code slots} leaves out an active slot: that takes a {@link #narrow}
     */
    void widen(Slots slots) {
        Slots gained;
        synchronized (this) {
            Slots dropped = active.minus(slots);
            if (!dropped.isEmpty()) {
                throw new IllegalArgumentException("reconciler " + name + ": widening to " + slots + " would give up "
                        + dropped + " without a drain; narrow first");
            }
            gained = slots.minus(active);
            active = slots;
        }
        if (!gained.isEmpty()) {
            int queued = eventKeys.enqueueIf(object -> gained.has(slotOf(object.getMetadata().getUid())))
                    + eventKeys.enqueueLeftIf(uid -> gained.has(slotOf(uid)));
            log.info("reconciler {}: reconciling the slots {}, gained {}; {}", name, slots, gained,
                    Plural.count(queued, "object") + " queued");
        }
    }

    /**
     * This reconciler's side of sharding: {@link ShardParticipant#narrow narrow} and {@link ShardParticipant#widen
     * widen} are these slots'; {@link ShardParticipant#assign assign} is recorded here, then handed to {@code assign}.
     */
    ShardParticipant participant(Consumer<Slots> assign) {
        return new ShardParticipant() {
            @Override
            public void assign(Slots assigned) {
                ActiveSlots.this.assign(assigned);
                assign.accept(assigned);
            }

            @Override
            public CompletableFuture<Void> narrow(Slots kept) {
                return ActiveSlots.this.narrow(kept);
            }

            @Override
            public void widen(Slots widened) {
                ActiveSlots.this.widen(widened);
            }
        };
    }

    /** The active slots and whether a given-up one still drains, for the reconciler's snapshot. */
    ReconcilerSnapshot.Shard shard() {
        return new ReconcilerSnapshot.Shard(active.toString(), draining());
    }

    /** Whether a reconcile of a slot given up runs still. */
    synchronized boolean draining() {
        Slots now = active;
        return running.stream().anyMatch(admitted -> !now.has(admitted.slot));
    }

    /** Keys of reconciles of given-up slots that ignored their interrupt and still run. */
    synchronized List<String> stuckKeys() {
        return running.stream().filter(admitted -> admitted.stuck).map(admitted -> admitted.key.toString()).toList();
    }

    /** Waits for {@code draining} on this thread, interrupting and then reporting what outlasts the grace. */
    private void drain(List<Admitted> draining, CompletableFuture<Void> drained) {
        try {
            if (!awaitFinished(draining, grace)) {
                interruptGivenUp(draining);
                if (!awaitFinished(draining, afterInterrupt)) {
                    reportStuck(draining);
                    while (!awaitFinished(draining, grace)) {
                        // a reconcile that ignored its interrupt may still return; only then is its slot free
                    }
                }
            }
            drained.complete(null);
        } catch (InterruptedException e) {
            drained.completeExceptionally(e); // nobody interrupts this thread of ours; if someone did, say so
        }
    }

    /** Waits up to {@code wait} on the time source; whether every one of {@code draining} finished. */
    private synchronized boolean awaitFinished(List<Admitted> draining, Duration wait) throws InterruptedException {
        Instant deadline = time.clock().instant().plus(wait);
        while (!allFinished(draining)) {
            Duration remaining = Duration.between(time.clock().instant(), deadline);
            if (remaining.isNegative() || remaining.isZero()) {
                return false;
            }
            time.await(this, remaining, () -> allFinished(draining));
        }
        return true;
    }

    private static boolean allFinished(List<Admitted> draining) {
        return draining.stream().allMatch(admitted -> admitted.finished);
    }

    /** Interrupts those of {@code draining} still running whose slot is still given up (a widen may have re-added it). */
    private synchronized void interruptGivenUp(List<Admitted> draining) {
        for (Admitted admitted : draining) {
            if (!admitted.finished && !active.has(admitted.slot)) {
                admitted.interrupted = true;
                admitted.thread.interrupt();
                log.info("reconciler {}: interrupted the reconcile of {} after the grace of {} ms: its slot {} was"
                        + " given up", name, admitted.key, grace.toMillis(), admitted.slot);
            }
        }
    }

    private synchronized void reportStuck(List<Admitted> draining) {
        for (Admitted admitted : draining) {
            if (!admitted.finished && admitted.interrupted) {
                admitted.stuck = true;
                log.warn("reconciler {}: the reconcile of {} ignored its interrupt and still runs on thread {} after"
                        + " {} ms; its slot {} is not drained until it returns", name, admitted.key,
                        admitted.thread.getName(), grace.plus(afterInterrupt).toMillis(), admitted.slot);
            }
        }
    }

    /** The cached object of {@code key} in the first primary store that has it, undecoded; {@code null} if none. */
    private CachedObject<T> cached(ObjectKey key) {
        for (CacheStore<T> store : stores) {
            Optional<CachedObject<T>> cached = store.cached(key);
            if (cached.isPresent()) {
                return cached.get();
            }
        }
        return null;
    }

    /** A watcher writes a {@link CacheStore}; its {@code store()} says only {@code Store}. */
    private static <T extends KubernetesObject> CacheStore<T> cacheStore(Watcher<T> watcher) {
        if (watcher.store() instanceof CacheStore<T> cache) {
            return cache;
        }
        throw new IllegalStateException("watcher " + watcher.name() + " has no cache store to read uids from");
    }
}
