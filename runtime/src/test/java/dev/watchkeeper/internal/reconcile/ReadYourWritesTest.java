package dev.watchkeeper.internal.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.reconcile.ManualTime;
import dev.watchkeeper.reconcile.ReconcilerSnapshot;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fence on the queue: a waiting key holds no worker, is woken by its version, and runs anyway at the timeout. */
@Timeout(5)
class ReadYourWritesTest {

    private static final ObjectKey KEY = new ObjectKey("ns", "p");
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final ManualTime time = new ManualTime();
    private final ReconcileQueue queue = new ReconcileQueue(time,
            ReconcilerSettings.defaults().withResyncPeriod(Duration.ZERO), () -> 0.5);
    private final OwnWrites writes = new OwnWrites(WatchedKinds.of(ResourceType.of(V1ConfigMap.class)));
    private final ReadYourWrites fence = new ReadYourWrites("test", writes, queue, time.clock(), TIMEOUT);

    @AfterEach
    void shutDown() {
        queue.shutDown();
    }

    @Test
    void aKeyWithNothingUndeliveredRunsAtOnce() {
        assertThat(fence.admit(KEY)).isTrue();
        assertThat(fence.snapshot()).isEqualTo(new ReconcilerSnapshot.ReadYourWrites(TIMEOUT, 0, 0, 0));
    }

    @Test
    void aWaitingKeyIsQueuedForTheTimeoutAndRunsAsSoonAsItsVersionIsDelivered() throws Exception {
        write("7");

        assertThat(fence.admit(KEY)).isFalse();
        assertThat(queue.depth()).as("holds no worker and is not due").isZero();
        assertThat(queue.delayed()).isEqualTo(1);
        assertThat(fence.snapshot().waiting()).isEqualTo(1);

        time.advance(Duration.ofMillis(40));
        writes.handled(KEY, "uid-p", "7", () -> { });

        assertThat(queue.take()).as("woken, due now").isEqualTo(KEY);
        assertThat(fence.admit(KEY)).isTrue();
        assertThat(fence.snapshot()).isEqualTo(new ReconcilerSnapshot.ReadYourWrites(TIMEOUT, 0, 1, 0));
    }

    @Test
    void aKeyWokenBeforeAllItsVersionsArrivedWaitsOnWithinTheSameTimeout() {
        write("7");
        fence.admit(KEY);
        time.advance(Duration.ofSeconds(2));
        write("8"); // another write charged to it meanwhile

        assertThat(fence.admit(KEY)).isFalse();
        assertThat(fence.snapshot().waits()).as("one wait, not two").isEqualTo(1);
        time.advance(Duration.ofSeconds(3));
        assertThat(fence.admit(KEY)).as("the timeout counts from the start of the wait").isTrue();
    }

    @Test
    void atTheTimeoutTheKeyRunsTheWaitIsCountedAndItsVersionsAreForgotten() throws Exception {
        write("7");
        assertThat(fence.admit(KEY)).isFalse();

        time.advance(TIMEOUT);

        assertThat(queue.take()).isEqualTo(KEY);
        assertThat(fence.admit(KEY)).isTrue();
        assertThat(fence.snapshot()).isEqualTo(new ReconcilerSnapshot.ReadYourWrites(TIMEOUT, 0, 1, 1));
        assertThat(writes.handled(KEY, "uid-p", "7", () -> { })).as("a late version queues as any change")
                .isFalse();
    }

    @Test
    void aDeletedObjectEndsTheWait() throws Exception {
        write("7");
        fence.admit(KEY);

        writes.forget("uid-p");

        assertThat(queue.take()).isEqualTo(KEY);
        assertThat(fence.admit(KEY)).isTrue();
    }

    @Test
    void offItNeverWaits() {
        ReadYourWrites off = new ReadYourWrites("test", writes, queue, time.clock(), Duration.ZERO);
        write("7");

        assertThat(off.admit(KEY)).isTrue();
        assertThat(off.snapshot()).isNull();
    }

    private void write(String version) {
        writes.begin(KEY);
        writes.end(KEY, new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
                .metadata(new V1ObjectMeta().namespace("ns").name("p").uid("uid-p").resourceVersion(version)), null,
                null);
    }
}
