package dev.watchkeeper.internal.store;

import dev.watchkeeper.store.CachedObject;
import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.store.Indexer;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded schedules of applies (new objects and replacements that move between namespaces' owners, labels and custom
 * keys), deletes, relists and relists abandoned halfway against a store, while readers look up concurrently. After
 * each step every lookup equals a scan of what the store must hold; during the steps a reader never gets an object
 * that does not match its lookup or that was never applied, always gets the objects no step changes, and gets its
 * answer in key order. {@code -Dindex.seed=N} replays seed N alone; otherwise seeds 1 to {@code -Dindex.seeds}
 * (100 by default).
 */
@Timeout(120)
class CacheStoreIndexChaosTest {

    private static final List<String> NAMESPACES = List.of("a", "b", "c");
    private static final List<String> OWNERS = List.of("o1", "o2", "o3");
    private static final List<String> APPS = List.of("x", "y");
    private static final List<String> DATA_KEYS = List.of("k1", "k2", "k3");
    private static final int NAMES = 12;
    private static final int STEPS = 200;
    private static final Function<V1ConfigMap, Collection<String>> BY_DATA_KEY = cm -> cm.getData() == null
            ? List.of() : cm.getData().keySet();

    /** One lookup and the predicate its answers must satisfy. */
    private record Lookup(String description, Function<CacheStore<V1ConfigMap>, List<V1ConfigMap>> read,
            Predicate<V1ConfigMap> matches) {
    }

    @TestFactory
    Stream<DynamicTest> everyLookupEqualsAScanAfterEachStepAndNeverLiesDuringOne() {
        String one = System.getProperty("index.seed");
        LongStream seeds = one != null && !one.isBlank() ? LongStream.of(Long.parseLong(one.trim()))
                : LongStream.rangeClosed(1, Long.getLong("index.seeds", 100));
        return seeds.mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
            try {
                run(seed);
            } catch (AssertionError | Exception e) {
                throw new AssertionError("index chaos seed " + seed + " failed; replay it with: ./mvnw -B -o test"
                        + " -pl runtime -Dtest=CacheStoreIndexChaosTest -Dindex.seed=" + seed + "\n"
                        + e.getMessage(), e);
            }
        }));
    }

    private static void run(long seed) throws InterruptedException {
        Random random = new Random(seed);
        CacheStore<V1ConfigMap> store = new CacheStore<>("chaos", true);
        AtomicLong versions = new AtomicLong();
        Set<String> applied = ConcurrentHashMap.newKeySet();
        // Half the seeds declare the custom index before any object, half after the first list.
        boolean indexFirst = seed % 2 == 0;
        if (indexFirst) {
            store.addIndex(new Indexer<>("data", BY_DATA_KEY));
        }
        List<CachedObject<V1ConfigMap>> stable = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            V1ConfigMap model = CacheStoreIndexTest.cm("a", "stable-" + i, "o1", Map.of("app", "x"))
                    .putDataItem("k1", "v");
            model.getMetadata().resourceVersion("s" + i);
            stable.add(CachedObject.of(model));
            applied.add(version(model));
        }
        Map<ObjectKey, V1ConfigMap> expected = new TreeMap<>();
        store.startRelist();
        stable.forEach(object -> apply(store, object, expected, applied));
        store.finishRelist();
        if (!indexFirst) {
            store.addIndex(new Indexer<>("data", BY_DATA_KEY));
        }

        List<Lookup> lookups = lookups();
        Set<String> stableVersions = Set.copyOf(stable.stream().map(o -> version(o.object())).toList());
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicInteger reads = new AtomicInteger();
        ReaderThreads readers = new ReaderThreads(2, seed, mine -> {
            Lookup lookup = lookups.get(mine.nextInt(lookups.size()));
            List<V1ConfigMap> found = lookup.read().apply(store);
            reads.incrementAndGet();
            check(lookup, found, applied, stableVersions).ifPresent(failures::add);
        });
        readers.start();
        try {
            for (int step = 0; step < STEPS; step++) {
                String did = step(random, store, stable, expected, versions, applied);
                for (Lookup lookup : lookups) {
                    List<String> scan = expected.values().stream().filter(lookup.matches()).map(
                            CacheStoreIndexChaosTest::version).toList();
                    assertThat(lookup.read().apply(store)).extracting(CacheStoreIndexChaosTest::version)
                            .as("step %d (%s): %s", step, did, lookup.description())
                            .containsExactlyElementsOf(scan);
                }
                assertThat(store.size()).as("step %d (%s): size", step, did).isEqualTo(expected.size());
                checkStats(store, expected, step, did);
            }
        } finally {
            readers.stop();
        }
        assertThat(failures).as("what readers got during the steps (%d reads)", reads.get()).isEmpty();
    }

    /** One step of the schedule; says what it did. */
    private static String step(Random random, CacheStore<V1ConfigMap> store, List<CachedObject<V1ConfigMap>> stable,
            Map<ObjectKey, V1ConfigMap> expected, AtomicLong versions, Set<String> applied) {
        int dice = random.nextInt(100);
        if (dice < 55) {
            CachedObject<V1ConfigMap> object = randomObject(random, versions);
            apply(store, object, expected, applied);
            return "apply " + version(object.object());
        }
        if (dice < 80) {
            ObjectKey key = randomKey(random);
            store.delete(key);
            expected.remove(key);
            return "delete " + key;
        }
        // a relist: re-applies the stable objects, some held ones (changed or not) and some new ones
        boolean finished = dice < 95;
        store.startRelist();
        Map<ObjectKey, V1ConfigMap> listed = new TreeMap<>();
        stable.forEach(object -> apply(store, object, listed, applied));
        for (V1ConfigMap held : List.copyOf(expected.values())) {
            if (held.getMetadata().getName().startsWith("stable-") || random.nextInt(3) == 0) {
                continue;
            }
            apply(store, random.nextBoolean() ? CachedObject.of(held) : randomObject(random, versions,
                    ObjectKey.of(held)), listed, applied);
        }
        for (int i = random.nextInt(4); i > 0; i--) {
            apply(store, randomObject(random, versions), listed, applied);
        }
        if (!finished) {
            expected.putAll(listed); // abandoned halfway: what it applied stays, nothing is swept
            return "relist abandoned after " + listed.size();
        }
        List<CachedObject<V1ConfigMap>> swept = store.finishRelist();
        assertThat(swept).extracting(object -> object.key())
                .containsExactlyInAnyOrderElementsOf(expected.keySet().stream()
                        .filter(key -> !listed.containsKey(key)).toList());
        expected.clear();
        expected.putAll(listed);
        return "relist of " + listed.size() + ", swept " + swept.size();
    }

    private static void apply(CacheStore<V1ConfigMap> store, CachedObject<V1ConfigMap> object,
            Map<ObjectKey, V1ConfigMap> into, Set<String> applied) {
        applied.add(version(object.object()));
        store.apply(object);
        into.put(object.key(), object.object());
    }

    private static ObjectKey randomKey(Random random) {
        return new ObjectKey(NAMESPACES.get(random.nextInt(NAMESPACES.size())), "n" + random.nextInt(NAMES));
    }

    private static CachedObject<V1ConfigMap> randomObject(Random random, AtomicLong versions) {
        return randomObject(random, versions, randomKey(random));
    }

    private static CachedObject<V1ConfigMap> randomObject(Random random, AtomicLong versions, ObjectKey key) {
        Map<String, String> labels = new HashMap<>();
        if (random.nextInt(4) > 0) {
            labels.put("app", APPS.get(random.nextInt(APPS.size())));
        }
        if (random.nextBoolean()) {
            labels.put("tier", String.valueOf(random.nextInt(2)));
        }
        String owner = random.nextInt(4) == 0 ? null : OWNERS.get(random.nextInt(OWNERS.size()));
        V1ConfigMap model = CacheStoreIndexTest.cm(key.namespace(), key.name(), owner, labels);
        if (random.nextInt(5) == 0) {
            // a plain (not controller) owner reference is not the controller owner
            model.getMetadata().addOwnerReferencesItem(new V1OwnerReference().uid("o2").controller(false));
        }
        for (String dataKey : DATA_KEYS) {
            if (random.nextInt(3) == 0) {
                model.putDataItem(dataKey, "v");
            }
        }
        model.getMetadata().resourceVersion(String.valueOf(versions.incrementAndGet()));
        return CachedObject.of(model);
    }

    private static List<Lookup> lookups() {
        List<Lookup> lookups = new ArrayList<>();
        for (String namespace : NAMESPACES) {
            lookups.add(new Lookup("namespace " + namespace, store -> store.listInNamespace(namespace),
                    cm -> namespace.equals(cm.getMetadata().getNamespace())));
        }
        for (String owner : OWNERS) {
            lookups.add(new Lookup("owner " + owner, store -> store.listByOwner(owner),
                    cm -> owner.equals(controller(cm))));
        }
        for (String app : APPS) {
            lookups.add(new Lookup("label app=" + app, store -> store.listByLabel("app", app),
                    cm -> app.equals(label(cm, "app"))));
        }
        for (String tier : List.of("0", "1")) {
            lookups.add(new Lookup("label tier=" + tier, store -> store.listByLabel("tier", tier),
                    cm -> tier.equals(label(cm, "tier"))));
        }
        for (String dataKey : DATA_KEYS) {
            lookups.add(new Lookup("data " + dataKey, store -> store.listByIndex("data", dataKey),
                    cm -> BY_DATA_KEY.apply(cm).contains(dataKey)));
        }
        return lookups;
    }

    /** What is wrong with what a reader found while the writer wrote, if anything. */
    private static Optional<String> check(Lookup lookup, List<V1ConfigMap> found, Set<String> applied,
            Set<String> stableVersions) {
        List<String> versions = found.stream().map(CacheStoreIndexChaosTest::version).toList();
        for (int i = 0; i < found.size(); i++) {
            V1ConfigMap object = found.get(i);
            if (!lookup.matches().test(object)) {
                return Optional.of(lookup.description() + " returned " + versions.get(i)
                        + ", which does not match");
            }
            if (!applied.contains(versions.get(i))) {
                return Optional.of(lookup.description() + " returned " + versions.get(i)
                        + ", which was never applied");
            }
            if (i > 0 && ObjectKey.of(found.get(i - 1)).compareTo(ObjectKey.of(object)) >= 0) {
                return Optional.of(lookup.description() + " is not in strict key order: " + versions);
            }
        }
        boolean stableMatch = lookup.matches().test(
                CacheStoreIndexTest.cm("a", "stable-0", "o1", Map.of("app", "x")).putDataItem("k1", "v"));
        if (stableMatch && !versions.containsAll(stableVersions)) {
            return Optional.of(lookup.description() + " missed an object no step changed: " + versions);
        }
        return Optional.empty();
    }

    private static void checkStats(CacheStore<V1ConfigMap> store, Map<ObjectKey, V1ConfigMap> expected, int step,
            String did) {
        Map<String, Long> entries = new HashMap<>();
        store.indexStats().forEach(stats -> entries.put(stats.name(), stats.entries()));
        assertThat(entries).as("step %d (%s): index entries", step, did).containsExactlyInAnyOrderEntriesOf(Map.of(
                "namespace", (long) expected.size(),
                "owner", expected.values().stream().filter(cm -> controller(cm) != null).count(),
                "label", expected.values().stream().mapToLong(cm -> cm.getMetadata().getLabels() == null ? 0
                        : cm.getMetadata().getLabels().size()).sum(),
                "data", expected.values().stream().mapToLong(cm -> BY_DATA_KEY.apply(cm).size()).sum()));
    }

    private static String controller(V1ConfigMap cm) {
        List<V1OwnerReference> references = cm.getMetadata().getOwnerReferences();
        return references == null ? null : references.stream().filter(r -> Boolean.TRUE.equals(r.getController()))
                .map(V1OwnerReference::getUid).findFirst().orElse(null);
    }

    private static String label(V1ConfigMap cm, String key) {
        return cm.getMetadata().getLabels() == null ? null : cm.getMetadata().getLabels().get(key);
    }

    private static String version(V1ConfigMap cm) {
        return ObjectKey.of(cm) + "@" + cm.getMetadata().getResourceVersion();
    }

    /** Threads that run a read over and over until stopped; what a read throws is kept and rethrown on stop. */
    private static final class ReaderThreads {
        interface Read {
            void run(Random random);
        }

        private final List<Thread> threads = new ArrayList<>();
        private final Queue<Throwable> thrown = new ConcurrentLinkedQueue<>();
        private volatile boolean stopped;

        /** {@code count} readers, each drawing its lookups from a {@link Random} of its own seed. */
        ReaderThreads(int count, long seed, Read read) {
            for (int i = 0; i < count; i++) {
                Random random = new Random(seed * 31 + i);
                threads.add(new Thread(() -> {
                    while (!stopped) {
                        try {
                            read.run(random);
                        } catch (RuntimeException | AssertionError e) {
                            thrown.add(e);
                            return;
                        }
                    }
                }, "index-reader-" + i));
            }
        }

        void start() {
            threads.forEach(Thread::start);
        }

        void stop() throws InterruptedException {
            stopped = true;
            for (Thread thread : threads) {
                thread.join();
            }
            assertThat(thrown).as("what the readers threw").isEmpty();
        }
    }
}
