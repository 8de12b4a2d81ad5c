package dev.watchkeeper.internal.shard;

/** The object field a shard selector hashes, named as the server's {@code shardRange} expects it. */
public enum ShardField {
    /** {@code object.metadata.uid}: objects spread evenly, each kept in one shard for its whole life. */
    UID("object.metadata.uid"),
    /** {@code object.metadata.namespace}: all objects of a namespace in one shard. */
    NAMESPACE("object.metadata.namespace");

    private final String path;

    ShardField(String path) {
        this.path = path;
    }

    /** The path as written in a selector, e.g. {@code object.metadata.uid}. */
    public String path() {
        return path;
    }
}
