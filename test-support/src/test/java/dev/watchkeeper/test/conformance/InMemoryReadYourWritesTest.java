package dev.watchkeeper.test.conformance;

import java.io.IOException;
import org.junit.jupiter.api.AfterAll;

/** The read-your-own-writes scenarios against the in-memory API server. */
class InMemoryReadYourWritesTest extends ReadYourWritesScenarios {

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
