package dev.watchkeeper.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.test.VirtualTime;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Releasing a Lease against the in-memory API server, on virtual time (client-go's {@code TestReleaseMethodCallsGet}
 * and {@code TestReleaseRetriesOnConflict}): the Lease is read before it is written, a write answered 409 is retried
 * from a new read a retry period later, and a Lease that names someone else is left alone.
 */
class LeaseReleaseTest {

    private static final Duration RETRY = Duration.ofSeconds(2);
    private static final Duration BUDGET = Duration.ofSeconds(10);

    private final InMemoryApiServer server = new InMemoryApiServer().start();
    private final CoordinationV1Api leases = new CoordinationV1Api(server.apiClient());
    private final VirtualTime time = new VirtualTime();
    /** The releaser's calls, as {@code METHOD status}. */
    private final List<String> calls = new CopyOnWriteArrayList<>();
    /** How many of the releaser's next writes someone else's write precedes (so they are answered 409). */
    private final AtomicInteger writesToPrecede = new AtomicInteger();
    private final LeaseRelease release = new LeaseRelease(new LeaseLock(releaserClient(), "default", "app-leader"),
            "a", time, RETRY);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void readsTheLeaseBeforeWritingTheReleasedRecordOverTheVersionItRead() throws ApiException {
        hold("a", 4);
        annotate(); // a writer of the Lease that is not the holder

        LeaseRelease.Outcome outcome = release.release(BUDGET);

        assertThat(outcome).isInstanceOfSatisfying(LeaseRelease.Released.class,
                released -> assertThat(released.attempt()).isEqualTo(1));
        assertThat(calls).containsExactly("GET 200", "PUT 200");
        V1Lease lease = lease();
        assertThat(lease.getSpec().getHolderIdentity()).isNull();
        assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(1);
        assertThat(lease.getSpec().getLeaseTransitions()).isEqualTo(4);
        assertThat(lease.getSpec().getRenewTime().toInstant()).isEqualTo(VirtualTime.DEFAULT_START);
        assertThat(lease.getMetadata().getAnnotations()).containsEntry("touched", "1");
        assertThat(time.sleeps()).isEmpty();
    }

    @Test
    void aWriteAnsweredConflictIsRetriedFromANewReadOneRetryPeriodLater() throws ApiException {
        hold("a", 0);
        writesToPrecede.set(1);

        LeaseRelease.Outcome outcome = release.release(BUDGET);

        assertThat(outcome).isInstanceOfSatisfying(LeaseRelease.Released.class,
                released -> assertThat(released.attempt()).isEqualTo(2));
        assertThat(calls).containsExactly("GET 200", "PUT 409", "GET 200", "PUT 200");
        assertThat(time.sleeps()).containsExactly(RETRY);
        V1Lease lease = lease();
        assertThat(lease.getSpec().getHolderIdentity()).isNull();
        assertThat(lease.getSpec().getRenewTime().toInstant()).isEqualTo(VirtualTime.DEFAULT_START.plus(RETRY));
        assertThat(lease.getMetadata().getAnnotations()).containsEntry("touched", "1");
    }

    @Test
    void aLeaseThatKeepsChangingIsGivenUpAfterThreeAttempts() throws ApiException {
        hold("a", 0);
        writesToPrecede.set(Integer.MAX_VALUE);

        LeaseRelease.Outcome outcome = release.release(BUDGET);

        assertThat(outcome).isEqualTo(new LeaseRelease.Failed(LeaseRelease.ATTEMPTS, "HTTP 409"));
        assertThat(calls).containsExactly("GET 200", "PUT 409", "GET 200", "PUT 409", "GET 200", "PUT 409");
        assertThat(time.sleeps()).containsExactly(RETRY, RETRY);
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo("a");
    }

    @Test
    void aConflictIsNotRetriedWhenTheBudgetLeavesNoRetryPeriod() throws ApiException {
        hold("a", 0);
        writesToPrecede.set(1);

        LeaseRelease.Outcome outcome = release.release(RETRY);

        assertThat(outcome).isEqualTo(new LeaseRelease.Failed(1, "HTTP 409"));
        assertThat(calls).containsExactly("GET 200", "PUT 409");
        assertThat(time.sleeps()).isEmpty();
    }

    @Test
    void anotherFailureIsNotRetried() throws ApiException {
        hold("a", 0);
        server.failRequests(1, 503);

        assertThat(release.release(BUDGET)).isEqualTo(new LeaseRelease.Failed(1, "HTTP 503"));
        assertThat(calls).containsExactly("GET 503");
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo("a");
    }

    @Test
    void aLeaseHeldByAnotherReplicaIsLeftAsItIs() throws ApiException {
        hold("b", 1);
        String version = lease().getMetadata().getResourceVersion();

        LeaseRelease.Outcome outcome = release.release(BUDGET);

        assertThat(outcome).isInstanceOfSatisfying(LeaseRelease.NotOurs.class,
                notOurs -> assertThat(notOurs.lease().record().holder()).isEqualTo("b"));
        assertThat(calls).containsExactly("GET 200");
        assertThat(lease().getMetadata().getResourceVersion()).isEqualTo(version);
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo("b");
    }

    @Test
    void aMissingLeaseIsNotCreated() {
        assertThat(release.release(BUDGET)).isEqualTo(new LeaseRelease.Gone());
        assertThat(calls).containsExactly("GET 404");
        assertThat(server.requests("leases")).hasSize(1);
    }

    // ---- helpers

    /**
     * A client that records its Lease calls and, while {@link #writesToPrecede} says so, lets someone else write the
     * Lease just before its own write goes out.
     */
    private ApiClient releaserClient() {
        ApiClient client = server.apiClient();
        client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(chain -> {
            String method = chain.request().method();
            if (method.equals("PUT") && writesToPrecede.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                try {
                    annotate();
                } catch (ApiException e) {
                    throw new IOException("cannot annotate the Lease: HTTP " + e.getCode(), e);
                }
            }
            Response response = chain.proceed(chain.request());
            calls.add(method + " " + response.code());
            return response;
        }).build());
        return client;
    }

    private void hold(String holder, int transitions) throws ApiException {
        leases.createNamespacedLease("default", new V1Lease()
                .metadata(new V1ObjectMeta().name("app-leader").namespace("default"))
                .spec(new V1LeaseSpec().holderIdentity(holder).leaseDurationSeconds(15)
                        .leaseTransitions(transitions))).execute();
    }

    /** Someone else's write: counts its writes in an annotation. */
    private void annotate() throws ApiException {
        V1Lease lease = lease();
        Map<String, String> annotations = lease.getMetadata().getAnnotations();
        String touched = annotations == null ? null : annotations.get("touched");
        int count = touched == null ? 1 : Integer.parseInt(touched) + 1;
        lease.getMetadata().setAnnotations(Map.of("touched", String.valueOf(count)));
        leases.replaceNamespacedLease("app-leader", "default", lease).execute();
    }

    private V1Lease lease() throws ApiException {
        return leases.readNamespacedLease("app-leader", "default").execute();
    }
}
