package dev.watchkeeper.internal.store;

import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.store.ObjectKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

@Timeout(20)
class CachedObjectTest {

    /** Decodes {@code name|rv} into a ConfigMap, counting calls; "poison" does not decode. */
    private static final class CountingDecoder implements CachedObject.Decoder<V1ConfigMap> {
        final AtomicInteger decodes = new AtomicInteger();
        final List<String> decoded = new CopyOnWriteArrayList<>();
        final CountDownLatch gate;

        CountingDecoder(CountDownLatch gate) {
            this.gate = gate;
        }

        @Override
        public V1ConfigMap decode(byte[] json) throws Exception {
            decodes.incrementAndGet();
            gate.await(5, TimeUnit.SECONDS);
            String[] parts = new String(json, StandardCharsets.UTF_8).split("\\|");
            if (parts[0].equals("poison")) {
                throw new IllegalStateException("poison");
            }
            decoded.add(parts[0]);
            return new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name(parts[0])
                    .resourceVersion(parts[1]));
        }

        @Override
        public String problem(byte[] json, Exception failure) {
            return "an object that does not decode (" + failure.getClass().getSimpleName() + ")";
        }
    }

    private static CachedObject<V1ConfigMap> raw(String name, String rv, Map<String, String> labels,
            CachedObject.Decoder<V1ConfigMap> decoder) {
        return new CachedObject<>(new ObjectKey("default", name), "uid-" + name, rv, 1L, labels, null, null, null,
                (name + "|" + rv).getBytes(StandardCharsets.UTF_8), decoder);
    }

    @Test
    void concurrentFirstReadsDecodeOnceAndShareTheModel() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        CountingDecoder decoder = new CountingDecoder(gate);
        CachedObject<V1ConfigMap> object = raw("a", "7", Map.of(), decoder);
        List<V1ConfigMap> models = new CopyOnWriteArrayList<>();
        List<Thread> readers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            readers.add(new Thread(() -> models.add(object.decoded()), "reader-" + i));
        }
        readers.forEach(Thread::start);
        // one reader decodes, held at the gate; the seven others must be waiting for it, not decoding themselves
        await().atMost(Duration.ofSeconds(10)).until(() -> readers.stream()
                .filter(t -> t.getState() == Thread.State.BLOCKED).count() == 7);
        gate.countDown();
        for (Thread reader : readers) {
            reader.join(5_000);
        }
        assertThat(models).hasSize(8).allSatisfy(model -> assertThat(model).isSameAs(models.get(0)));
        assertThat(decoder.decodes).hasValue(1);
        assertThat(object.isDecoded()).isTrue();
    }

    @Test
    void anUndecodableObjectIsReportedOnceAndNotServedWhileTheRestOfTheStoreIs() {
        CountingDecoder decoder = new CountingDecoder(new CountDownLatch(0));
        CacheStore<V1ConfigMap> store = new CacheStore<>("cms", true);
        Logger storeLog = (Logger) LoggerFactory.getLogger(CacheStore.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        storeLog.addAppender(logged);
        try {
            store.startRelist();
            store.apply(raw("a", "1", Map.of(), decoder));
            store.apply(raw("poison", "2", Map.of(), decoder));
            store.apply(raw("c", "3", Map.of(), decoder));
            assertThat(store.finishRelist()).isEmpty();

            assertThat(store.get("default", "poison")).isEmpty();
            assertThat(store.list()).extracting(c -> c.getMetadata().getName()).containsExactly("a", "c");
            assertThat(store.listInNamespace("default")).hasSize(2);
            assertThat(store.get("default", "poison")).isEmpty();
            assertThat(store.undecodableReads()).isEqualTo(1);
            assertThat(logged.list).extracting(e -> e.getLevel() + " " + e.getFormattedMessage()).containsExactly(
                    "WARN watcher cms: skipped an object that does not decode (IllegalStateException); it is not "
                            + "served until a newer version arrives");
            assertThat(decoder.decodes).as("decoded once per version, failures included").hasValue(3);

            // a newer version of the same key that decodes is served at once
            CachedObject<V1ConfigMap> fixed = new CachedObject<>(new ObjectKey("default", "poison"), null, "4", null,
                    null, null, null, null, "fixed|4".getBytes(StandardCharsets.UTF_8), decoder);
            store.apply(fixed);
            assertThat(store.get("default", "poison")).hasValueSatisfying(c -> assertThat(c.getMetadata()
                    .getResourceVersion()).isEqualTo("4"));
            assertThat(store.undecodableReads()).isEqualTo(1);
            assertThat(logged.list).hasSize(1);
        } finally {
            storeLog.detachAppender(logged);
        }
    }

    @Test
    void aRelistSweepsAndHandsBackWhatItDidNotMentionAndMakesTheStoreReady() {
        CountingDecoder decoder = new CountingDecoder(new CountDownLatch(0));
        CacheStore<V1ConfigMap> store = new CacheStore<>("cms", true);
        store.startRelist();
        store.apply(raw("a", "1", Map.of(), decoder));
        store.apply(raw("b", "2", Map.of(), decoder));
        store.apply(raw("gone", "3", Map.of(), decoder));
        assertThat(store.ready()).isNotDone();
        store.finishRelist();
        assertThat(store.ready()).isDone();

        store.startRelist();
        store.apply(raw("a", "4", Map.of(), decoder));
        store.delete(new ObjectKey("default", "b"));
        assertThat(store.size()).as("readers still see the old objects during the relist").isEqualTo(2);
        assertThat(store.finishRelist()).extracting(CachedObject::key)
                .containsExactly(new ObjectKey("default", "gone"));
        assertThat(store.list()).extracting(c -> c.getMetadata().getResourceVersion()).containsExactly("4");
    }

    @Test
    void aLabelSelectorReadsLabelsWithoutDecoding() {
        CountingDecoder decoder = new CountingDecoder(new CountDownLatch(0));
        CacheStore<V1ConfigMap> store = new CacheStore<>("cms", true);
        CachedObject<V1ConfigMap> web = raw("web", "1", Map.of("tier", "web"), decoder);
        CachedObject<V1ConfigMap> db = raw("db", "2", Map.of("tier", "db"), decoder);
        store.startRelist();
        store.apply(web);
        store.apply(db);
        store.finishRelist();

        assertThat(store.list("tier=web")).extracting(c -> c.getMetadata().getName()).containsExactly("web");
        assertThat(store.cached(new ObjectKey("default", "db"))).hasValueSatisfying(cached -> {
            assertThat(cached.labels()).containsEntry("tier", "db");
            assertThat(cached.isDecoded()).isFalse();
        });
        assertThat(decoder.decoded).containsExactly("web");
        assertThat(store.size()).isEqualTo(2);
    }

    @Test
    void aUidReadsBackAsTheServerWroteIt() {
        CountingDecoder decoder = new CountingDecoder(new CountDownLatch(0));
        for (String uid : List.of("0b4c1f52-9d0e-4a7b-8c1e-2f6a3d5e7b90", "0B4C1F52-9D0E-4A7B-8C1E-2F6A3D5E7B90",
                "not-a-uuid", "00000000-0000-0000-0000-000000000000")) {
            assertThat(new CachedObject<>(new ObjectKey("default", "a"), uid, "1", null, null, null, null, null,
                    new byte[0], decoder).uid()).isEqualTo(uid);
        }
        assertThat(new CachedObject<>(new ObjectKey("default", "a"), null, "1", null, null, null, null, null,
                new byte[0], decoder).uid()).isNull();
    }

    @Test
    void anObjectHandedInDecodedCarriesItsModelsMetadata() {
        V1ConfigMap model = new V1ConfigMap().metadata(new V1ObjectMeta().namespace("ns").name("n").uid("u")
                .resourceVersion("9").generation(3L).labels(Map.of("app", "x")).addFinalizersItem("f"));
        CachedObject<V1ConfigMap> cached = CachedObject.of(model);

        assertThat(cached.key()).isEqualTo(new ObjectKey("ns", "n"));
        assertThat(List.of(cached.uid(), cached.resourceVersion())).containsExactly("u", "9");
        assertThat(cached.generation()).isEqualTo(3L);
        assertThat(cached.labels()).containsExactly(Map.entry("app", "x"));
        assertThat(cached.finalizers()).containsExactly("f");
        assertThat(cached.deletionTimestamp()).isNull();
        assertThat(cached.decoded()).isSameAs(model);
    }
}
