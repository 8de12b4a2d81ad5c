package dev.watchkeeper.test.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.watch.WatcherSnapshot;
import dev.watchkeeper.watch.WatcherSnapshot.Shard.Mode;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every replica of a set says who filters its share, whatever its watchers' initial list: {@code SERVER} on a server
 * that applies shard selectors (its lists carry {@code shardInfo}; a streaming list is preceded by a one-object list
 * that asks), {@code CLIENT} on one that ignores them, where each replica also counts the objects it dropped. One
 * subclass per kind of server, each with the selectors applied and ignored.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ReplicaFilterModeScenarios {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int OBJECTS = 60;

    /** A new client of the server under test that applies shard selectors, or ignores them. */
    abstract ApiClient newClient(boolean shardSelectors);

    /** Where the ConfigMaps and member Leases live on that server. */
    abstract String namespace(boolean shardSelectors);

    @ParameterizedTest(name = "the server applies shard selectors: {0}")
    @ValueSource(booleans = {true, false})
    void everyReplicaSaysWhetherTheServerAppliesItsShardSelector(boolean shardSelectors) throws Exception {
        try (Churn churn = new Churn(newClient(shardSelectors), namespace(shardSelectors), OBJECTS, 7);
                ReplicaSet set = new ReplicaSet(() -> newClient(shardSelectors), namespace(shardSelectors))) {
            churn.createUpTo(OBJECTS);
            set.start("replica-0");
            set.start("replica-1");
            set.start("replica-2");
            set.awaitSettled(WAIT);

            await().atMost(WAIT).untilAsserted(() -> assertThat(set.live()).allSatisfy(replica -> {
                WatcherSnapshot.Shard shard = replica.primaryShard();
                assertThat(shard.mode()).as(replica.identity).isEqualTo(shardSelectors ? Mode.SERVER : Mode.CLIENT);
                if (shardSelectors) {
                    assertThat(shard.clientFiltered()).as(replica.identity).isZero();
                } else {
                    assertThat(shard.clientFiltered()).as(replica.identity + ": objects outside its share it dropped")
                            .isPositive();
                }
            }));
        }
    }
}
