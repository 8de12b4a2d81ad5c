package dev.watchkeeper.test.conformance;

import java.io.IOException;
import org.junit.jupiter.api.AfterAll;

/** The sharded watcher scenarios against the in-memory API server (shard selectors honoured, and a server without). */
class InMemoryShardedWatcherTest extends ShardedWatcherScenarios {

    private final InMemoryServer server = new InMemoryServer();

    @Override
    ServerUnderTest server() {
        return server;
    }

    @AfterAll
    void stop() throws IOException {
        server.close();
    }
}
