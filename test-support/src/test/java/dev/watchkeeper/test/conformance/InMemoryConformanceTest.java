package dev.watchkeeper.test.conformance;

import java.io.IOException;
import org.junit.jupiter.api.AfterAll;

/** The conformance scenarios against the in-memory API server. */
class InMemoryConformanceTest extends ConformanceScenarios {

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
