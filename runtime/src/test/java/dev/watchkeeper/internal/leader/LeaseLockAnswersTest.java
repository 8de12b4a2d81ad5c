package dev.watchkeeper.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Lease is read as the watchers read objects: an API server newer than the client may send fields the client's
 * models do not know, in the Lease's spec or metadata, and the leader election and the sharding members that read
 * it must go on. A refusal is still the server's error, with its code.
 */
@Timeout(20)
class LeaseLockAnswersTest {

    private static final String LEASE = "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{"
            + "\"name\":\"app-leader\",\"namespace\":\"default\",\"resourceVersion\":\"9\","
            + "\"fieldOfANewerServer\":\"x\"},\"spec\":{\"holderIdentity\":\"a\",\"leaseDurationSeconds\":15,"
            + "\"leaseTransitions\":2,\"renewTime\":\"2026-12-04T12:00:00.000000Z\",\"fieldOfANewerServer\":1}}";
    private static final Duration LIMIT = Duration.ofSeconds(5);

    private volatile int status = 200;
    private final HttpServer server = start();

    /** Answers a GET of the Lease with {@link #LEASE}, a list with a list of it. */
    private HttpServer start() {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            http.createContext("/", exchange -> {
                exchange.getRequestBody().readAllBytes();
                String answer = exchange.getRequestURI().getPath().endsWith("/leases")
                        ? "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"LeaseList\",\"metadata\":{"
                                + "\"resourceVersion\":\"9\",\"fieldOfANewerServer\":true},\"items\":[" + LEASE + "]}"
                        : LEASE;
                byte[] body = (status == 200 ? answer : "{\"kind\":\"Status\",\"code\":" + status + "}")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(status, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            http.start();
            return http;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void aLeaseWithFieldsTheModelDoesNotKnowIsRead() throws Exception {
        LeaseLock.Observed observed = new LeaseLock(client(), "default", "app-leader").get(LIMIT);

        assertThat(observed.record().holder()).isEqualTo("a");
        assertThat(observed.record().transitions()).isEqualTo(2);
        assertThat(observed.lease().getMetadata().getResourceVersion()).isEqualTo("9");
    }

    @Test
    void aListOfThemIsReadToo() throws Exception {
        List<LeaseLock.Observed> leases = LeaseLock.list(client(), "default", "group=a", LIMIT);

        assertThat(leases).singleElement().satisfies(lease -> assertThat(lease.record().holder()).isEqualTo("a"));
    }

    @Test
    void aRefusalIsTheServersErrorWithItsCode() {
        status = 403;

        assertThatThrownBy(() -> new LeaseLock(client(), "default", "app-leader").get(LIMIT))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(403));
    }

    private ApiClient client() {
        return new ApiClient().setBasePath("http://127.0.0.1:" + server.getAddress().getPort());
    }
}
