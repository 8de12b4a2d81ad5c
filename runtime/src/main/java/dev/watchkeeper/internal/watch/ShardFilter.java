package dev.watchkeeper.internal.watch;

import dev.watchkeeper.internal.shard.ShardRanges;
import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.internal.shard.UidHash;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.watch.WatcherSnapshot;
import io.kubernetes.client.openapi.models.V1OwnerReference;

/**
 * Which uid places an object in a slot, for a sharded watcher ({@link WatcherBuilder#shardFilter}): the object's own
 * (a sharded reconciler's primary) or its controller owner's (the objects it owns). Only the first can be asked of the
 * server; the watcher checks every object itself with either.
 */
public enum ShardFilter {

    /** {@code metadata.uid}: the server filters too when it honours {@code shardSelector}. */
    BY_OBJECT_UID(WatcherSnapshot.Shard.By.OBJECT_UID) {
        @Override
        String placingUid(CachedObject<?> object) {
            return object.uid();
        }

        @Override
        String selector(Slots slots) {
            return slots.ranges().map(ShardRanges::selector).orElse(null);
        }
    },

    /**
     * The uid of the owner reference with {@code controller: true}. The server has no selector for it; an object
     * without a controller owner maps to no primary and is never held.
     */
    BY_CONTROLLER_OWNER_UID(WatcherSnapshot.Shard.By.CONTROLLER_OWNER_UID) {
        @Override
        String placingUid(CachedObject<?> object) {
            for (V1OwnerReference owner : object.ownerReferences()) {
                if (Boolean.TRUE.equals(owner.getController())) {
                    return owner.getUid();
                }
            }
            return null;
        }

        @Override
        String selector(Slots slots) {
            return null;
        }
    };

    private final WatcherSnapshot.Shard.By by;

    ShardFilter(WatcherSnapshot.Shard.By by) {
        this.by = by;
    }

    /** Whether {@code object} lies in {@code slots}: read from its scanned metadata, without decoding it. */
    boolean admits(CachedObject<?> object, Slots slots) {
        String uid = placingUid(object);
        return uid != null && slots.contains(UidHash.of(uid));
    }

    /** The uid whose hash places {@code object}, or {@code null} when it has none. */
    abstract String placingUid(CachedObject<?> object);

    /** The {@code shardSelector} parameter that asks the server for {@code slots}, or {@code null} if none can. */
    abstract String selector(Slots slots);

    /** As the snapshot names it. */
    WatcherSnapshot.Shard.By by() {
        return by;
    }
}
