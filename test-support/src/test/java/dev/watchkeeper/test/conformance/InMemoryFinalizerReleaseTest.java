package dev.watchkeeper.test.conformance;

import java.io.IOException;
import org.junit.jupiter.api.AfterAll;

/** The finalizer release scenarios against the in-memory API server. */
class InMemoryFinalizerReleaseTest extends FinalizerReleaseScenarios {

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
