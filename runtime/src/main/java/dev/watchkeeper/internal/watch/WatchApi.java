package dev.watchkeeper.internal.watch;

import dev.watchkeeper.internal.resource.ResolvedResource;

/**
 * The seam between the watcher's state machine and the API server: discovery, list pages and watches for one
 * resource in one scope. {@code HttpWatchApi} (package {@code watch.http}) is the real thing; tests point it at a
 * stub server rather than mocking it.
 */
public interface WatchApi<T> {

    /** Plural and scope of the resource, from discovery unless declared. */
    ResolvedResource resolve() throws ApiFailure;

    /** One page of a list. */
    ListPage<T> list(ResolvedResource resource, ListRequest request) throws ApiFailure;

    /**
     * The {@code metadata.shardInfo.selector} of a list with {@code shardSelector}, or {@code null} when the answer
     * has none (the server ignored the selector): what a streaming list's answer never says. The real API asks for
     * one object only.
     */
    default String shardInfo(ResolvedResource resource, String shardSelector) throws ApiFailure {
        return list(resource, ListRequest.consistent().withShardSelector(shardSelector)).shardSelector();
    }

    /** Opens a watch. */
    EventStream<T> watch(ResolvedResource resource, WatchRequest request) throws ApiFailure;

    /** Cancels whatever call is in flight, so a closing watcher is not held up by the network. */
    void abort();

    /**
     * Makes the {@link WatchApi} of a watcher once its scope and options are known, when the watcher is built.
     *
     * <pre>{@code
     * Watcher.builder((scope, options) -> new HttpWatchApi<>(client, type, scope, options), type);
     * }</pre>
     */
    @FunctionalInterface
    interface Factory<T> {

        WatchApi<T> create(WatchScope scope, WatchOptions options);
    }
}
