package dev.watchkeeper.test.chaos;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/** {@link RetryAfterWritesScenarios} on the in-memory API server, which throttles the request itself. */
class InMemoryRetryAfterWritesTest extends RetryAfterWritesScenarios {

    private final InMemoryApiServer server = new InMemoryApiServer().start();
    private final ApiClient client = server.apiClient();

    @AfterEach
    void stop() {
        server.close();
    }

    @Override
    ApiClient client() {
        return client;
    }

    @Override
    ApiClient directClient() {
        return server.apiClient();
    }

    @Override
    String namespace() {
        return "default";
    }

    @Override
    void throttleNext(Duration retryAfter) {
        server.throttle(1, retryAfter);
    }

    @Override
    int openWatches() {
        return server.openWatches();
    }

    @Override
    List<String> received() {
        return server.requests().stream().map(request -> request.method() + " " + request.path()).toList();
    }
}
