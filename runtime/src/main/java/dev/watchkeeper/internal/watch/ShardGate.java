package dev.watchkeeper.internal.watch;

import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.internal.store.CacheStore;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.watch.WatchEvent;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Optional;

/**
 * A sharded watcher's own filter, applied to every event before its store sees it, whether or not the server
 * filtered too: so what the watcher holds is the same with a server that ignores {@code shardSelector}. An object
 * outside the share is dropped; one that leaves it while held (only possible by controller owner, whose owner
 * reference can change) is delivered as a {@code Delete} of the state the store held, as a server reports an object
 * that stops matching a label selector. Used by the watcher's thread only.
 */
final class ShardGate<T extends KubernetesObject> {

    private final ShardFilter filter;
    private final CacheStore<T> store;
    private Slots slots;
    private volatile boolean sawOutside;
    /** Objects dropped as outside the share since start: what the server did not filter. Written by one thread. */
    private volatile long filtered;

    ShardGate(ShardFilter filter, CacheStore<T> store) {
        this.filter = filter;
        this.store = store;
    }

    /** The share from now on. */
    void reshard(Slots slots) {
        this.slots = slots;
    }

    /** Whether an object outside the share arrived since the last list began: the server did not filter. */
    boolean sawOutside() {
        return sawOutside;
    }

    /** Objects this filter dropped since start, because the server sent them though they are outside the share. */
    long filtered() {
        return filtered;
    }

    /** The event to deliver for {@code event}, or {@code null} to drop it. */
    WatchEvent<T> admit(WatchEvent<T> event) {
        if (event instanceof WatchEvent.Init<T>) {
            sawOutside = false;
            return event;
        }
        if (event instanceof WatchEvent.InitApply<T> apply) {
            return inShare(apply.cached()) ? event : null;
        }
        if (event instanceof WatchEvent.Apply<T> apply) {
            if (inShare(apply.cached())) {
                return event;
            }
            Optional<CachedObject<T>> held = store.cached(apply.cached().key());
            return held.<WatchEvent<T>>map(last -> new WatchEvent.Delete<>(last, false)).orElse(null);
        }
        if (event instanceof WatchEvent.Delete<T> delete) {
            return inShare(delete.cached()) || store.cached(delete.cached().key()).isPresent() ? event : null;
        }
        return event;
    }

    private boolean inShare(CachedObject<T> object) {
        if (filter.admits(object, slots)) {
            return true;
        }
        sawOutside = true;
        filtered++; // only the watcher's thread writes it
        return false;
    }
}
