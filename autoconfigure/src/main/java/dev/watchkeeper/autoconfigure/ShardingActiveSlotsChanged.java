package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.internal.shard.ShardingSnapshot;

/**
 * Published when this replica's active slots change ({@code watchkeeper.sharding.enabled=true}), on the
 * coordinator's thread, after its reconcilers were narrowed or widened. Slots are written as runs of the 128 slots,
 * e.g. {@code [0-20,64]}.
 *
 * <pre>{@code
 * @EventListener
 * void on(ShardingActiveSlotsChanged event) { log.info("now reconciling {}", event.after()); }
 * }</pre>
 *
 * @param before   the active slots before
 * @param after    the active slots now
 * @param snapshot the coordinator's state now
 */
public record ShardingActiveSlotsChanged(String before, String after, ShardingSnapshot snapshot) {
}
