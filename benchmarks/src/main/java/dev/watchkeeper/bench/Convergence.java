package dev.watchkeeper.bench;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.Pair;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import okhttp3.Call;
import okhttp3.Response;
import okio.BufferedSource;

/**
 * Watches one namespace's generators and their ConfigMaps from the harness and notes the instant every generator
 * has converged to a generation: {@code metadata.generation} and {@code status.observedGeneration} are it, and both
 * of its ConfigMaps carry it in their generation annotation (so they exist and hold what that generation asks for).
 * What the server holds decides, not what the application says about itself.
 */
final class Convergence implements AutoCloseable {

    private final GeneratorApi api;
    private final String namespace;
    private final List<Thread> watches;
    /** name → {generation, observedGeneration (0 when none)} */
    private final Map<String, long[]> generators = new HashMap<>();
    /** ConfigMap name → the generation it was written for */
    private final Map<String, Long> configMaps = new HashMap<>();
    private final Set<String> converged = new HashSet<>();
    private final Set<Call> open = ConcurrentHashMap.newKeySet();
    private final CountDownLatch listed = new CountDownLatch(2);
    private long target;
    private int expected;
    private long convergedAt;
    private volatile boolean closed;
    private Exception failure;

    private Convergence(GeneratorApi api, String namespace) {
        this.api = api;
        this.namespace = namespace;
        this.watches = List.of(
                new Thread(() -> watch(GeneratorApi.generatorsPath(namespace), null, false), "convergence-generators"),
                new Thread(() -> watch(GeneratorApi.configMapsPath(namespace), GeneratorApi.GENERATOR_LABEL, true),
                        "convergence-configmaps"));
    }

    /** Starts watching {@code namespace}; returns once both lists it starts from are done. */
    static Convergence watch(GeneratorApi api, String namespace) throws InterruptedException {
        Convergence convergence = new Convergence(api, namespace);
        convergence.watches.forEach(thread -> {
            thread.setDaemon(true);
            thread.start();
        });
        if (!convergence.listed.await(1, TimeUnit.MINUTES)) {
            throw new IllegalStateException("listing " + namespace + " took over a minute");
        }
        return convergence;
    }

    /**
     * Waits until all {@code count} generators have converged to {@code generation}; returns the {@code nanoTime}
     * of the event that completed it (which may precede this call).
     */
    synchronized long awaitAll(int count, long generation, long timeoutMillis) throws Exception {
        target = generation;
        expected = count;
        convergedAt = 0;
        converged.clear();
        generators.keySet().forEach(this::check);
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (convergedAt == 0 && failure == null) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                throw new TimeoutException(converged.size() + " of " + count + " generators in " + namespace
                        + " converged to generation " + generation + " within " + timeoutMillis / 1000 + " s");
            }
            wait(left);
        }
        if (failure != null) {
            throw new IllegalStateException("watching " + namespace + " failed", failure);
        }
        return convergedAt;
    }

    private void watch(String path, String labelSelector, boolean ofConfigMaps) {
        try {
            List<Pair> selector = labelSelector == null ? List.of() : List.of(new Pair("labelSelector", labelSelector));
            JsonObject list = api.send("GET", path, selector, null, "application/json").getAsJsonObject();
            list.getAsJsonArray("items").forEach(item -> seen(item.getAsJsonObject(), false, ofConfigMaps));
            String version = list.getAsJsonObject("metadata").get("resourceVersion").getAsString();
            listed.countDown();
            while (!closed) {
                version = stream(path, selector, version, ofConfigMaps);
            }
        } catch (Exception e) {
            if (!closed) {
                synchronized (this) {
                    failure = e;
                    notifyAll();
                }
            }
        }
    }

    /** One watch request until the server ends it; the last resourceVersion seen. */
    private String stream(String path, List<Pair> selector, String version, boolean ofConfigMaps)
            throws Exception {
        List<Pair> query = new ArrayList<>(selector);
        query.add(new Pair("watch", "true"));
        query.add(new Pair("resourceVersion", version));
        ApiClient client = api.client();
        Call call = client.buildCall(null, path, "GET", query, List.of(), null,
                new HashMap<>(Map.of("Accept", "application/json")), Map.of(), Map.of(),
                new String[] {"BearerToken"}, null);
        open.add(call);
        if (closed) {
            call.cancel();
        }
        try (Response response = call.execute()) {
            if (!response.isSuccessful()) {
                throw new IllegalStateException("watch " + path + " answered " + response.code());
            }
            BufferedSource source = response.body().source();
            String line;
            while (!closed && (line = source.readUtf8Line()) != null) {
                JsonObject event = JsonParser.parseString(line).getAsJsonObject();
                JsonObject object = event.getAsJsonObject("object");
                if ("ERROR".equals(event.get("type").getAsString())) {
                    throw new IllegalStateException("watch " + path + ": " + object);
                }
                version = object.getAsJsonObject("metadata").get("resourceVersion").getAsString();
                seen(object, "DELETED".equals(event.get("type").getAsString()), ofConfigMaps);
            }
        } finally {
            open.remove(call);
        }
        return version;
    }

    private synchronized void seen(JsonObject object, boolean deleted, boolean ofConfigMaps) {
        JsonObject metadata = object.getAsJsonObject("metadata");
        String name = metadata.get("name").getAsString();
        if (ofConfigMaps) {
            JsonObject annotations = metadata.getAsJsonObject("annotations");
            if (deleted || annotations == null || !annotations.has(GeneratorApi.GENERATION_ANNOTATION)) {
                configMaps.remove(name);
            } else {
                configMaps.put(name, Long.parseLong(annotations.get(GeneratorApi.GENERATION_ANNOTATION).getAsString()));
            }
            String generator = metadata.getAsJsonObject("labels").get(GeneratorApi.GENERATOR_LABEL).getAsString();
            check(generator);
        } else {
            JsonObject status = object.getAsJsonObject("status");
            long observed = status != null && status.has("observedGeneration")
                    ? status.get("observedGeneration").getAsLong() : 0;
            if (deleted) {
                generators.remove(name);
            } else {
                generators.put(name, new long[] {GeneratorApi.generation(object), observed});
            }
            check(name);
        }
    }

    private void check(String generator) {
        if (expected == 0 || convergedAt != 0) {
            return;
        }
        long[] state = generators.get(generator);
        boolean done = state != null && state[0] == target && state[1] == target;
        for (int i = 0; done && i < GeneratorApi.REPLICAS; i++) {
            Long written = configMaps.get(GeneratorApi.configMapName(generator, i));
            done = written != null && written == target;
        }
        if (done) {
            converged.add(generator);
        } else {
            converged.remove(generator);
        }
        if (converged.size() == expected) {
            convergedAt = System.nanoTime();
            notifyAll();
        }
    }

    @Override
    public void close() {
        closed = true;
        open.forEach(Call::cancel);
    }
}
