package dev.watchkeeper.bench;

import dev.watchkeeper.internal.resource.ResolvedResource;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.internal.watch.EventStream;
import dev.watchkeeper.internal.watch.ListPage;
import dev.watchkeeper.internal.watch.ListRequest;
import dev.watchkeeper.internal.watch.WatchApi;
import dev.watchkeeper.internal.watch.WatchRequest;
import dev.watchkeeper.internal.watch.WireEvent;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An in-process {@link WatchApi} for the dispatch scenario: the list is {@code keys} small ConfigMaps at once, and
 * the watch emits MODIFIED events on demand ({@link #emit}), cycling over the keys. No HTTP and no JSON, so the
 * controller and its queue are what is measured.
 */
final class SyntheticWatchApi implements WatchApi<V1ConfigMap> {

    private final int keys;
    private final Semaphore permits = new Semaphore(0);
    private final AtomicLong emitted = new AtomicLong();
    private long resourceVersion = 1;
    private long next;
    private volatile boolean closed;

    SyntheticWatchApi(int keys) {
        this.keys = keys;
    }

    static String name(int i) {
        return String.format("k-%06d", i);
    }

    static int index(String name) {
        return Integer.parseInt(name, 2, name.length(), 10);
    }

    /** Lets the watch emit {@code count} more MODIFIED events. */
    void emit(int count) {
        permits.release(count);
    }

    /** How many watch events the watcher has taken so far. */
    long emitted() {
        return emitted.get();
    }

    @Override
    public ResolvedResource resolve() {
        return new ResolvedResource("", "v1", "configmaps", true);
    }

    @Override
    public ListPage<V1ConfigMap> list(ResolvedResource resource, ListRequest request) {
        List<CachedObject<V1ConfigMap>> items = new ArrayList<>(keys);
        for (int i = 0; i < keys; i++) {
            items.add(CachedObject.of(object(i, "1")));
        }
        return new ListPage<>(items, "1", null, List.of());
    }

    @Override
    public EventStream<V1ConfigMap> watch(ResolvedResource resource, WatchRequest request) {
        return new EventStream<>() {
            @Override
            public WireEvent<V1ConfigMap> next() throws java.io.IOException {
                try {
                    permits.acquire();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("closed");
                }
                if (closed) {
                    return null;
                }
                String rv = Long.toString(++resourceVersion);
                V1ConfigMap object = object((int) (next++ % keys), rv);
                emitted.incrementAndGet();
                return new WireEvent.Change<>(WireEvent.ChangeType.MODIFIED, CachedObject.of(object), rv);
            }

            @Override
            public void clearDeadline() {
            }

            @Override
            public void close() {
                closed = true;
                permits.release(1_000_000);
            }
        };
    }

    @Override
    public void abort() {
    }

    private static V1ConfigMap object(int i, String rv) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("bench").name(name(i)).resourceVersion(rv))
                .data(Map.of("k", rv));
    }
}
