package dev.watchkeeper.test.apiserver;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A fresh in-memory API server per test, with a raw HTTP client for it. */
abstract class InMemoryServerTest {

    InMemoryApiServer server;
    RawHttp http;

    @BeforeEach
    void startServer() {
        server = new InMemoryApiServer().start();
        http = new RawHttp(server);
    }

    @AfterEach
    void stopServer() {
        server.close();
    }
}
