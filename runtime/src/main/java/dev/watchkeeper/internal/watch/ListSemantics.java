package dev.watchkeeper.internal.watch;


/**
 * Which lists a list-watch watcher sends (docs/semantics.md §2). Streaming lists
 * ({@link InitialListStrategy#STREAMING}) are watches and do not depend on it.
 */
public enum ListSemantics {
    /**
     * Every list is a consistent read ({@code resourceVersion} unset) in pages of {@code pageSize}: never older than
     * what etcd holds when it is asked, and the answer arrives in bounded pages.
     */
    CONSISTENT,
    /**
     * client-go's reflector: the first list asks for any version ({@code resourceVersion=0}), which the API server
     * serves from its watch cache in one unpaged answer ({@code limit} is ignored there); a relist asks for the last
     * synced version or newer ({@code resourceVersion=<last>}, no {@code limit}), again from the watch cache; a
     * consistent paged list is sent only after such a list is refused as expired (410) or as a version the server
     * has not reached yet (too large).
     */
    CACHED
}
