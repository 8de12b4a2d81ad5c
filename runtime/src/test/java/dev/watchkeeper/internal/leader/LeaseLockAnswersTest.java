package dev.watchkeeper.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.watchkeeper.internal.api.StubApiServer;
import io.kubernetes.client.openapi.ApiException;
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
    private static final String LIST = "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"LeaseList\","
            + "\"metadata\":{\"resourceVersion\":\"9\",\"fieldOfANewerServer\":true},\"items\":[" + LEASE + "]}";
    private static final Duration LIMIT = Duration.ofSeconds(5);

    private volatile int status = 200;
    /** Answers a read of the Lease with {@link #LEASE}, a list with {@link #LIST}, or {@link #status}'s Status. */
    private final StubApiServer server = new StubApiServer(request -> new StubApiServer.Answer(status,
            status != 200 ? "{\"kind\":\"Status\",\"code\":" + status + "}"
                    : request.uri().contains("/leases?") ? LIST : LEASE));

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aLeaseWithFieldsTheModelDoesNotKnowIsRead() throws Exception {
        LeaseLock.Observed observed = new LeaseLock(server.client(), "default", "app-leader").get(LIMIT);

        assertThat(observed.record().holder()).isEqualTo("a");
        assertThat(observed.record().transitions()).isEqualTo(2);
        assertThat(observed.lease().getMetadata().getResourceVersion()).isEqualTo("9");
    }

    @Test
    void aListOfThemIsReadToo() throws Exception {
        List<LeaseLock.Observed> leases = LeaseLock.list(server.client(), "default", "group=a", LIMIT);

        assertThat(leases).singleElement().satisfies(lease -> assertThat(lease.record().holder()).isEqualTo("a"));
        assertThat(server.requests()).singleElement()
                .satisfies(request -> assertThat(request.uri()).contains("labelSelector=group%3Da"));
    }

    @Test
    void aRefusalIsTheServersErrorWithItsCode() {
        status = 403;

        assertThatThrownBy(() -> new LeaseLock(server.client(), "default", "app-leader").get(LIMIT))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(403));
    }
}
