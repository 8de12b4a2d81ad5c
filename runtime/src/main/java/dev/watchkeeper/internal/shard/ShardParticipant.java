package dev.watchkeeper.internal.shard;

import java.util.concurrent.CompletableFuture;

/**
 * A sharded reconciler as its replica's {@code ShardCoordinator} drives it. For each new assignment the coordinator
 * calls, on its own thread: {@link #assign} (the watchers list what is now this replica's), {@link #narrow} (stop
 * reconciling what left, and drain it), and, once every live replica has adopted the assignment, {@link #widen}.
 * So a key is never reconciled by two replicas at once: a replica gives up slots before it says it adopted an
 * assignment, and takes up new ones only after every other replica has said so.
 */
public interface ShardParticipant {

    /** The slots assigned to this replica now: the primary watchers list and watch these (and only these). */
    void assign(Slots assigned);

    /**
     * Reconcile only keys whose object lies in {@code active} from now on; the future completes once no reconcile of
     * another key runs (running ones are interrupted after the reconciler's grace).
     */
    CompletableFuture<Void> narrow(Slots active);

    /** Reconcile keys in {@code active} (a superset of what {@link #narrow} kept), queuing the objects it gained. */
    void widen(Slots active);
}
