package dev.watchkeeper.internal.shard;


/** Hears a {@link ShardCoordinator} change the slots its replica reconciles, on the coordinator's thread. */
@FunctionalInterface
public interface ShardingListener {

    /** The active slots went from {@code before} to {@code after}; {@code snapshot} is the state after. */
    void activeSlotsChanged(Slots before, Slots after, ShardingSnapshot snapshot);
}
