package dev.watchkeeper.test.conformance;

import io.kubernetes.client.openapi.ApiClient;

/**
 * A Kubernetes API server that the conformance scenarios run against: the in-memory server or the real control
 * plane. Each scenario is written once against this interface; where the two servers need different set-up (how
 * history is compacted, how a user is denied and then granted access), the interface hides it.
 */
interface ServerUnderTest {

    /** "in-memory" or "control-plane", for messages. */
    String name();

    /** A client with every right and no read timeout. */
    ApiClient apiClient();

    /** The namespace this test class owns. */
    String namespace();

    /** Drops history, so that a watch from an older resourceVersion of {@code podtemplates} gets 410 Gone. */
    void compact();

    /** A client that may not list or watch {@code configmaps} in {@link #namespace()} until {@link #grantConfigMaps()}. */
    ApiClient restrictedClient();

    /** Lets {@link #restrictedClient()} list and watch {@code configmaps} in {@link #namespace()}. */
    void grantConfigMaps();

    /**
     * A client of a second server of the same kind whose API server refuses streaming lists (the WatchList feature
     * gate off), with {@link #namespace()} created there too.
     */
    ApiClient withoutWatchList();

    /**
     * A client of a server of this kind whose API server honours {@code shardSelector} (the ShardedListAndWatch
     * feature gate on), with {@link #namespace()} created there.
     */
    ApiClient withShardSelectors();

    /**
     * A client of a server of this kind whose API server ignores {@code shardSelector} (the gate off, as by default),
     * with {@link #namespace()} created there.
     */
    ApiClient withoutShardSelectors();

    /** The {@code kubectl} to drive this server with, and the kubeconfig it uses, as command-line prefix. */
    java.util.List<String> kubectl();
}
