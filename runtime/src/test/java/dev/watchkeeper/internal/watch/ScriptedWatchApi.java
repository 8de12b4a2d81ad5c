package dev.watchkeeper.internal.watch;

import dev.watchkeeper.internal.resource.ResolvedResource;
import dev.watchkeeper.store.CachedObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

/** A {@link WatchApi} answering from a script, for single-threaded tests of {@link WatchMachine}. */
final class ScriptedWatchApi implements WatchApi<V1ConfigMap> {

    static final ResolvedResource CONFIG_MAPS = new ResolvedResource("", "v1", "configmaps", true);

    private final Deque<Object> answers = new ArrayDeque<>();
    final List<String> calls = new ArrayList<>();

    ScriptedWatchApi page(String continueToken, String resourceVersion, V1ConfigMap... items) {
        answers.add(new ListPage<>(Stream.of(items).map(CachedObject::of).toList(), resourceVersion, continueToken, List.of()));
        return this;
    }

    /** A page whose metadata says the server applied {@code shardSelector}. */
    ScriptedWatchApi shardedPage(String shardSelector, String continueToken, String resourceVersion,
            V1ConfigMap... items) {
        answers.add(new ListPage<>(Stream.of(items).map(CachedObject::of).toList(), resourceVersion, continueToken,
                List.of(), shardSelector));
        return this;
    }

    ScriptedWatchApi fail(int code) {
        answers.add(new ApiFailure(code, "failure " + code));
        return this;
    }

    ScriptedWatchApi fail(ApiFailure failure) {
        answers.add(failure);
        return this;
    }

    /** A stream of these events; an {@link IOException} element breaks it, the end of the list is EOF. */
    ScriptedWatchApi stream(Object... events) {
        answers.add(List.of(events));
        return this;
    }

    static V1ConfigMap cm(String name, String rv) {
        return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name(name).resourceVersion(rv));
    }

    static WireEvent<V1ConfigMap> added(String name, String rv) {
        return new WireEvent.Change<>(WireEvent.ChangeType.ADDED, CachedObject.of(cm(name, rv)), rv);
    }

    @Override
    public ResolvedResource resolve() {
        return CONFIG_MAPS;
    }

    @Override
    public ListPage<V1ConfigMap> list(ResolvedResource resource, ListRequest request) throws ApiFailure {
        calls.add("list " + (request.continueToken() == null ? "" : request.continueToken())
                + (request.resourceVersion() == null ? "" : "rv=" + request.resourceVersion())
                + (request.paged() ? "" : " unpaged") + shard(request.shardSelector()));
        return answer(ListPage.class);
    }

    @Override
    public EventStream<V1ConfigMap> watch(ResolvedResource resource, WatchRequest request) throws ApiFailure {
        calls.add("watch " + request.resourceVersion() + (request.sendInitialEvents() ? " initial" : "")
                + shard(request.shardSelector()));
        List<?> events = answer(List.class);
        Iterator<?> it = events.iterator();
        return new EventStream<>() {
            @Override
            @SuppressWarnings("unchecked")
            public WireEvent<V1ConfigMap> next() throws IOException {
                if (!it.hasNext()) {
                    return null;
                }
                Object next = it.next();
                if (next instanceof IOException e) {
                    throw e;
                }
                return (WireEvent<V1ConfigMap>) next;
            }

            @Override
            public void clearDeadline() {
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public void abort() {
    }

    private static String shard(String selector) {
        return selector == null ? "" : " shardSelector=" + selector;
    }

    @SuppressWarnings("unchecked")
    private <R> R answer(Class<?> expected) throws ApiFailure {
        Object next = answers.poll();
        if (next instanceof ApiFailure failure) {
            throw failure;
        }
        if (!expected.isInstance(next)) {
            throw new AssertionError("script expected " + expected.getSimpleName() + " but has " + next);
        }
        return (R) next;
    }
}
