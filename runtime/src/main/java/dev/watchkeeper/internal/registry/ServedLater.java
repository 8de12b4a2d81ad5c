package dev.watchkeeper.internal.registry;

import dev.watchkeeper.internal.watch.Watcher;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The watchers that only reconcilers' {@code ownsWhenServed} types read: until the server serves their type (their
 * first list is done) nothing waits for them, neither a reconciler, readiness, health nor the start-up line. A watcher
 * that some reconciler needs from the start is needed, whoever else reads it.
 */
final class ServedLater {

    private final Set<Watcher<?>> whenServed = ConcurrentHashMap.newKeySet();
    private final Set<Watcher<?>> needed = ConcurrentHashMap.newKeySet();

    void whenServed(Collection<? extends Watcher<?>> watchers) {
        whenServed.addAll(watchers);
    }

    void needed(Collection<? extends Watcher<?>> watchers) {
        needed.addAll(watchers);
    }

    /** Whether {@code watcher} lists a type that only a type owned when served reads, and has not listed it yet. */
    boolean awaits(Watcher<?> watcher) {
        return whenServed.contains(watcher) && !needed.contains(watcher) && !watcher.store().ready().isDone();
    }

    /** {@code watchers} but those that nothing needs before their type is served. */
    List<Watcher<?>> waitedFor(Collection<Watcher<?>> watchers) {
        return watchers.stream().filter(w -> !whenServed.contains(w) || needed.contains(w)).toList();
    }
}
