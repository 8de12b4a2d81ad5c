package dev.watchkeeper.reconcile;

import dev.watchkeeper.internal.resource.ResolvedResource;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.internal.watch.ApiFailure;
import dev.watchkeeper.internal.watch.EventStream;
import dev.watchkeeper.internal.watch.ListPage;
import dev.watchkeeper.internal.watch.ListRequest;
import dev.watchkeeper.internal.watch.WatchApi;
import dev.watchkeeper.internal.watch.WatchRequest;
import dev.watchkeeper.internal.watch.WireEvent;
import io.kubernetes.client.common.KubernetesObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link WatchApi} without HTTP: lists an in-memory list, and watches a stream fed by {@link #apply} and
 * {@link #delete}; {@link #relist} ends the watch with a 410. {@link #holdList()} keeps the initial list waiting until {@link #releaseList()}.
 */
public final class FakeWatchApi<T extends KubernetesObject> implements WatchApi<T> {

    private static final WireEvent<?> END = new WireEvent.Bookmark<>("end", false);

    private final ResourceType<T> type;
    private volatile List<T> initial = new ArrayList<>();
    private final BlockingQueue<WireEvent<T>> events = new LinkedBlockingQueue<>();
    private final AtomicLong version = new AtomicLong(100);
    private volatile CompletableFuture<Void> listGate = CompletableFuture.completedFuture(null);

    public FakeWatchApi(ResourceType<T> type) {
        this.type = type;
    }

    /** Objects the first list returns; call before the watcher starts. */
    @SafeVarargs
    public final FakeWatchApi<T> listing(T... objects) {
        initial.addAll(List.of(objects));
        return this;
    }

    /** Ends the open watch with 410 Gone, so the watcher relists and gets {@code objects}. */
    @SafeVarargs
    public final void relist(T... objects) {
        initial = List.of(objects);
        events.add(new WireEvent.ErrorStatus<>(410, "Expired", "too old resource version"));
    }

    public FakeWatchApi<T> holdList() {
        listGate = new CompletableFuture<>();
        return this;
    }

    public void releaseList() {
        listGate.complete(null);
    }

    /** A MODIFIED (or ADDED) event on the open watch. */
    public void apply(T object) {
        events.add(new WireEvent.Change<>(WireEvent.ChangeType.MODIFIED, CachedObject.of(object), rv(object)));
    }

    public void delete(T object) {
        events.add(new WireEvent.Change<>(WireEvent.ChangeType.DELETED, CachedObject.of(object), rv(object)));
    }

    /** A fresh resourceVersion for test objects. */
    public String nextVersion() {
        return Long.toString(version.incrementAndGet());
    }

    @Override
    public ResolvedResource resolve() {
        return type.resolved();
    }

    @Override
    public ListPage<T> list(ResolvedResource resource, ListRequest request) throws ApiFailure {
        try {
            listGate.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiFailure(0, "interrupted");
        } catch (ExecutionException e) {
            throw new ApiFailure(0, "aborted");
        }
        return new ListPage<>(initial.stream().map(CachedObject::of).toList(), "1", null, List.of());
    }

    @Override
    public EventStream<T> watch(ResolvedResource resource, WatchRequest request) {
        return new EventStream<>() {
            @Override
            @SuppressWarnings("unchecked")
            public WireEvent<T> next() throws IOException {
                try {
                    WireEvent<T> event = events.take();
                    if (event == END) {
                        throw new IOException("closed");
                    }
                    return event;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted");
                }
            }

            @Override
            public void clearDeadline() {
            }

            @Override
            @SuppressWarnings("unchecked")
            public void close() {
                events.add((WireEvent<T>) END);
            }
        };
    }

    @Override
    public void abort() {
        listGate.completeExceptionally(new IllegalStateException("aborted"));
    }

    private static String rv(KubernetesObject object) {
        return object.getMetadata() == null ? null : object.getMetadata().getResourceVersion();
    }
}
