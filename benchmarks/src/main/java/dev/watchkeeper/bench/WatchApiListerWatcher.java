package dev.watchkeeper.bench;

import dev.watchkeeper.internal.resource.ResolvedResource;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.internal.watch.ApiFailure;
import dev.watchkeeper.internal.watch.EventStream;
import dev.watchkeeper.internal.watch.ListRequest;
import dev.watchkeeper.internal.watch.WatchApi;
import dev.watchkeeper.internal.watch.WatchRequest;
import dev.watchkeeper.internal.watch.WireEvent;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ListMeta;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watch;
import io.kubernetes.client.util.Watchable;
import java.io.IOException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * client-java's informer reading one of our {@link WatchApi}s: the list is the first page, the watch hands on each
 * {@link WireEvent.Change} as a {@link Watch.Response}. With a {@link SyntheticWatchApi} behind it the informer gets
 * the same objects and events as our watcher, without HTTP or JSON on either side.
 */
final class WatchApiListerWatcher implements ListerWatcher<V1ConfigMap, V1ConfigMapList> {

    private final WatchApi<V1ConfigMap> api;

    WatchApiListerWatcher(WatchApi<V1ConfigMap> api) {
        this.api = api;
    }

    @Override
    public V1ConfigMapList list(CallGeneratorParams params) throws ApiException {
        try {
            var page = api.list(api.resolve(), ListRequest.consistent());
            return new V1ConfigMapList().items(page.items().stream().map(CachedObject::object).toList()).metadata(new V1ListMeta().resourceVersion(page.resourceVersion()));
        } catch (ApiFailure e) {
            throw new ApiException(e);
        }
    }

    @Override
    public Watchable<V1ConfigMap> watch(CallGeneratorParams params) throws ApiException {
        try {
            return new Events(api.watch(api.resolve(), WatchRequest.from(params.resourceVersion)));
        } catch (ApiFailure e) {
            throw new ApiException(e);
        }
    }

    /** The informer asks {@code hasNext()} and blocks there, as it does on a real watch's socket. */
    private static final class Events implements Watchable<V1ConfigMap> {

        private final EventStream<V1ConfigMap> stream;
        private Watch.Response<V1ConfigMap> next;
        private boolean ended;

        Events(EventStream<V1ConfigMap> stream) {
            this.stream = stream;
        }

        @Override
        public boolean hasNext() {
            while (next == null && !ended) {
                WireEvent<V1ConfigMap> event;
                try {
                    event = stream.next();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
                if (event == null) {
                    ended = true;
                } else if (event instanceof WireEvent.Change<V1ConfigMap> change) {
                    next = new Watch.Response<>(change.type().name(), change.cached().object());
                }
            }
            return next != null;
        }

        @Override
        public Watch.Response<V1ConfigMap> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Watch.Response<V1ConfigMap> response = next;
            next = null;
            return response;
        }

        @Override
        public Iterator<Watch.Response<V1ConfigMap>> iterator() {
            return this;
        }

        @Override
        public void close() {
            stream.close();
        }
    }
}
