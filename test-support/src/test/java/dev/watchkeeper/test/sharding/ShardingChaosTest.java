package dev.watchkeeper.test.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Seeded chaos for sharding on the in-memory API server: replicas join, leave, crash (killed without releasing their
 * Lease, see {@link Replica}), every Lease call is refused for a while (403, shorter or longer than the renew
 * deadline) and requests of any kind fail (500/503), at random moments while a writer churns ConfigMaps; then the
 * same end checks as {@link ReplicaSetScenarios}. Seeds 1 to {@code -Dsharding.seeds} (default 3), or the seeds of
 * {@code -Dsharding.seed=N[,M…]}; a failure names its seed.
 */
class ShardingChaosTest {

    private static final int OBJECTS = 200;
    private static final int EVENTS = 10;
    private static final int MAX_REPLICAS = 4;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TestFactory
    Stream<DynamicTest> seeds() {
        String chosen = System.getProperty("sharding.seed");
        LongStream seeds = chosen != null && !chosen.isBlank()
                ? Arrays.stream(chosen.split(",")).map(String::trim).mapToLong(Long::parseLong)
                : LongStream.rangeClosed(1, Long.getLong("sharding.seeds", 3));
        return seeds.mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
            try {
                run(seed);
            } catch (AssertionError | Exception e) {
                throw new AssertionError("sharding chaos seed " + seed + " failed; replay it with -Dtest="
                        + getClass().getSimpleName() + " -Dsharding.seed=" + seed + "\n" + e.getMessage(), e);
            }
        }));
    }

    private void run(long seed) throws Exception {
        Random random = new Random(seed);
        List<String> done = new ArrayList<>();
        try (InMemoryApiServer server = new InMemoryApiServer().start();
                Churn churn = new Churn(server.apiClient(), "default", OBJECTS, seed);
                ReplicaSet set = new ReplicaSet(server::apiClient, "default")) {
            churn.createUpTo(OBJECTS / 2);
            churn.start(10);
            int next = 0;
            set.start("replica-" + next++);
            for (int event = 0; event < EVENTS; event++) {
                List<Replica> live = set.live();
                int pick = random.nextInt(6);
                if ((pick == 0 || live.size() == 1) && live.size() < MAX_REPLICAS) {
                    set.start("replica-" + next);
                    done.add("join replica-" + next++);
                } else if (pick == 1 && live.size() > 1) {
                    Replica leaving = live.get(random.nextInt(live.size()));
                    leaving.close();
                    done.add("leave " + leaving);
                } else if (pick == 2 && live.size() > 1) {
                    Replica crashing = live.get(random.nextInt(live.size()));
                    crashing.kill();
                    done.add("crash " + crashing);
                } else if (pick == 3) {
                    int writes = 5 + random.nextInt(300); // about 50 ms to 3 s: some outlast the renew deadline
                    server.forbid("coordination.k8s.io", "leases");
                    awaitWrites(churn, writes);
                    server.allow("coordination.k8s.io", "leases");
                    done.add("Leases refused for " + writes + " writes");
                } else if (pick == 4) {
                    int failures = 1 + random.nextInt(5);
                    server.failRequests(failures, random.nextBoolean() ? 500 : 503);
                    done.add(failures + " requests failed");
                } else {
                    set.awaitSettled(WAIT);
                    done.add("settled");
                }
                awaitWrites(churn, random.nextInt(100));
            }
            churn.finish();
            set.awaitSettled(WAIT);
            Map<ObjectKey, String> onServer = churn.onServer();
            await().atMost(WAIT).untilAsserted(() -> assertThat(set.intervals().lastVersions())
                    .as("the resourceVersion each object was last reconciled at").isEqualTo(onServer));
            set.assertConsistent(onServer.keySet());
            set.print("seed " + seed + " " + done);
        } catch (AssertionError | Exception e) {
            throw new AssertionError("after " + done + ": " + e.getMessage(), e);
        }
    }

    /** Lets the writer make {@code writes} more writes (10 ms each): the pace of the chaos, tied to real progress. */
    private static void awaitWrites(Churn churn, int writes) {
        int target = churn.writes() + writes;
        await().atMost(WAIT).until(() -> churn.writes() >= target);
    }
}
