package dev.watchkeeper.test.sharding;

import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The test's ConfigMaps ({@code cm-0}, {@code cm-1}, … labelled {@value Replica#LABEL}): created in bulk before the
 * replicas start, then, while they come and go, a writer creates the rest and updates random ones, one write per
 * tick of a fixed rate.
 */
final class Churn implements AutoCloseable {

    private final CoreV1Api api;
    private final String namespace;
    private final int total;
    private final Random random;
    private final AtomicInteger created = new AtomicInteger();
    private final AtomicInteger updates = new AtomicInteger();
    private final AtomicInteger writesDone = new AtomicInteger();
    private final List<String> failures = new ArrayList<>();
    private final ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "churn-writer");
        thread.setDaemon(true);
        return thread;
    });
    private ScheduledFuture<?> ticks;

    Churn(ApiClient client, String namespace, int total, long seed) {
        this.api = new CoreV1Api(client);
        this.namespace = namespace;
        this.total = total;
        this.random = new Random(seed);
    }

    /** Creates the first {@code count} objects, on a few threads. */
    void createUpTo(int count) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> writes = new ArrayList<>();
            for (int i = created.get(); i < count; i++) {
                int index = i;
                writes.add(pool.submit(() -> {
                    create(index);
                    return null;
                }));
            }
            for (Future<?> write : writes) {
                write.get();
            }
            created.set(count);
        } finally {
            pool.shutdown();
        }
    }

    /** Starts writing: every {@code periodMillis}, creates the next object (until all are) or updates a random one. */
    void start(long periodMillis) {
        ticks = writer.scheduleAtFixedRate(this::tick, 0, periodMillis, TimeUnit.MILLISECONDS);
    }

    /** Stops writing, creating the objects not created yet first; returns once no write runs. */
    void finish() throws Exception {
        ticks.cancel(false);
        writer.submit(() -> { }).get(); // after the last tick
        synchronized (failures) {
            if (!failures.isEmpty()) {
                throw new AssertionError("the writer failed: " + failures);
            }
        }
        createUpTo(total);
    }

    int created() {
        return created.get();
    }

    int updates() {
        return updates.get();
    }

    /** Writes the writer attempted since it started, those an injected 500 or 503 refused included. */
    int writes() {
        return writesDone.get();
    }

    /** The test's objects on the server, by key, with their resourceVersions. */
    Map<ObjectKey, String> onServer() throws ApiException {
        return api.listNamespacedConfigMap(namespace).labelSelector(Replica.LABEL).execute().getItems().stream()
                .collect(Collectors.toMap(ObjectKey::of, configMap -> configMap.getMetadata().getResourceVersion(),
                        (a, b) -> a));
    }

    private void tick() {
        try {
            int next = created.get();
            if (next < total && random.nextInt(3) == 0) {
                create(next);
                created.incrementAndGet();
            } else {
                update(random.nextInt(next));
            }
        } catch (ApiException e) {
            if (e.getCode() != 500 && e.getCode() != 503) { // those a chaos run injects: the next tick writes on
                failed(e.getCode() + " " + e.getResponseBody());
            }
        } catch (RuntimeException e) { // else the executor would stop ticking without a word
            failed(e.toString());
        } finally {
            writesDone.incrementAndGet();
        }
    }

    private void failed(String failure) {
        synchronized (failures) {
            failures.add(failure);
        }
    }

    private void create(int index) throws ApiException {
        api.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(metadata(index))
                .data(Map.of("version", "0"))).execute();
    }

    private void update(int index) throws ApiException {
        // no resourceVersion: an unconditional update, never a conflict with nobody else writing
        api.replaceNamespacedConfigMap("cm-" + index, namespace, new V1ConfigMap().metadata(metadata(index))
                .data(Map.of("version", Integer.toString(updates.incrementAndGet())))).execute();
    }

    private V1ObjectMeta metadata(int index) {
        String[] label = Replica.LABEL.split("=");
        return new V1ObjectMeta().name("cm-" + index).namespace(namespace).labels(Map.of(label[0], label[1]));
    }

    @Override
    public void close() {
        writer.shutdownNow();
    }
}
