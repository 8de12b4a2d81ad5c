package dev.watchkeeper.internal.store;

import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.store.Store;
import io.kubernetes.client.common.KubernetesObject;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * One logical {@link Store} over the stores of several watchers of one resource, one per namespace (a
 * {@code namespaces} set, docs/semantics.md §11). Reads merge the stores in key order; it is ready when every store is.
 * The watchers keep their own backoff and state; a namespace that cannot be listed holds back readiness but not
 * the others' objects.
 *
 * <pre>{@code
 * Store<V1ConfigMap> both = new MergedStore<>(List.of(teamA.store(), teamB.store()));
 * both.get("team-b", "settings");
 * }</pre>
 */
public final class MergedStore<T extends KubernetesObject> implements Store<T> {

    private static final Comparator<KubernetesObject> BY_KEY = Comparator.comparing(ObjectKey::of);

    private final List<Store<T>> stores;

    public MergedStore(List<? extends Store<T>> stores) {
        this.stores = List.copyOf(stores);
        if (this.stores.isEmpty()) {
            throw new IllegalArgumentException("a merged store needs at least one store");
        }
    }

    @Override
    public Optional<T> get(ObjectKey key) {
        Objects.requireNonNull(key, "key");
        for (Store<T> store : stores) {
            Optional<T> found = store.get(key);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    @Override
    public List<T> list() {
        return merged(Store::list);
    }

    @Override
    public List<T> list(String labelSelector) {
        return merged(store -> store.list(labelSelector));
    }

    @Override
    public List<T> listInNamespace(String namespace) {
        return merged(store -> store.listInNamespace(namespace));
    }

    @Override
    public List<T> listByOwner(String ownerUid) {
        return merged(store -> store.listByOwner(ownerUid));
    }

    @Override
    public List<T> listByLabel(String key, String value) {
        return merged(store -> store.listByLabel(key, value));
    }

    @Override
    public List<T> listByIndex(String index, String key) {
        return merged(store -> store.listByIndex(index, key));
    }

    @Override
    public int size() {
        return stores.stream().mapToInt(Store::size).sum();
    }

    @Override
    public CompletableFuture<Void> ready() {
        return CompletableFuture.allOf(stores.stream().map(Store::ready).toArray(CompletableFuture[]::new));
    }

    @Override
    public boolean awaitReady(Duration timeout) throws InterruptedException {
        try {
            ready().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException("the ready future never fails", e);
        }
    }

    private List<T> merged(Function<Store<T>, List<T>> read) {
        return stores.stream().flatMap(store -> read.apply(store).stream()).sorted(BY_KEY).toList();
    }

    @Override
    public String toString() {
        return "MergedStore" + stores;
    }
}
