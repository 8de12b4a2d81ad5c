package dev.watchkeeper.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.watchkeeper.internal.shard.ShardSelector;
import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.internal.shard.UidHash;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The API server of the scaling curve: n small ConfigMaps ({@link ConfigMapBytes#small}), rendered once and kept as
 * bytes, so a million of them take about half a gigabyte here (the in-memory API server keeps a JSON tree, its
 * encoding and managedFields per object, about 8 KB each). It serves discovery, lists (paged by {@code limit} and
 * {@code continue} as the real server pages them, or whole in one document when there is no limit) and watches from
 * a list's resourceVersion, which stay silent until {@link #expire()} ends them with a 410 Expired ERROR event, as
 * a compaction does; a watch from an older version gets that event at once. Nothing changes the objects, so every
 * list, whatever resourceVersion it asks for, is the current state. A list with a {@code shardSelector} holds only the
 * objects whose uid hash it selects and says so in {@code metadata.shardInfo.selector}, as kube-apiserver does with
 * the {@code ShardedListAndWatch} gate on (the sharding scenario's replicas send one; the scaling curve's do not).
 */
final class ScalingServer implements AutoCloseable {

    private static final byte[] COMMA = {','};
    private static final byte[] END_ITEMS = "]}".getBytes(StandardCharsets.UTF_8);
    /** How long a watch without {@code timeoutSeconds} stays open. */
    private static final long DEFAULT_WATCH_SECONDS = 1800;

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "scaling-server");
        t.setDaemon(true);
        return t;
    });
    private final byte[][] objects;
    /** Each object's uid hash, for {@code shardSelector}. */
    private final long[] hashes;
    private final long jsonBytes;
    private final Object lock = new Object();
    /** The resourceVersion lists are served at; watches from below {@link #horizon} are expired. */
    private long resourceVersion;
    private long horizon;
    private boolean closed;

    ScalingServer(int n) throws IOException {
        objects = new byte[n][];
        hashes = new long[n];
        long total = 0;
        for (int i = 0; i < n; i++) {
            objects[i] = ConfigMapBytes.small(i, Long.toString(i + 1L)).getBytes(StandardCharsets.UTF_8);
            hashes[i] = UidHash.of(ConfigMapBytes.smallUid(i));
            total += objects[i].length;
        }
        jsonBytes = total;
        resourceVersion = n + 1L;
        horizon = resourceVersion;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The objects' JSON bytes, all together. */
    long jsonBytes() {
        return jsonBytes;
    }

    /** How many of the objects lie in {@code slots}. */
    int count(Slots slots) {
        int count = 0;
        for (long hash : hashes) {
            if (slots.contains(hash)) {
                count++;
            }
        }
        return count;
    }

    /** Forces a relist: the resourceVersion moves on and every watch from before it ends with 410 Expired. */
    void expire() {
        synchronized (lock) {
            resourceVersion++;
            horizon = resourceVersion;
            lock.notifyAll();
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            if (path.equals("/api/v1")) {
                exchange.sendResponseHeaders(200, ReplayServer.DISCOVERY.length);
                exchange.getResponseBody().write(ReplayServer.DISCOVERY);
            } else if (!path.endsWith("/configmaps") || !exchange.getRequestMethod().equals("GET")) {
                exchange.sendResponseHeaders(404, -1);
            } else if ("true".equals(query.get("watch")) || "1".equals(query.get("watch"))) {
                watch(exchange, query);
            } else {
                list(exchange, query);
            }
        }
    }

    private void list(HttpExchange exchange, Map<String, String> query) throws IOException {
        long listVersion;
        long oldest;
        synchronized (lock) {
            listVersion = resourceVersion;
            oldest = horizon;
        }
        int from = 0;
        String token = query.get("continue");
        if (token != null) {
            int dash = token.indexOf('-');
            listVersion = Long.parseLong(token.substring(0, dash));
            from = Integer.parseInt(token.substring(dash + 1));
            if (listVersion < oldest) {
                status(exchange, 410, "Expired", "the continue token's resourceVersion is compacted");
                return;
            }
        }
        String selector = query.get("shardSelector");
        ShardSelector shard = selector == null || selector.isEmpty() ? null : ShardSelector.parse(selector);
        long limit = query.containsKey("limit") ? Long.parseLong(query.get("limit")) : 0;
        // the page: up to limit selected objects from index `from` on; `to` is where the next page goes on scanning
        int[] page = new int[(int) Math.min(objects.length - from, limit <= 0 ? Integer.MAX_VALUE : limit)];
        int taken = 0;
        int to = from;
        while (to < objects.length && taken < page.length) {
            if (shard == null || shard.ranges().contains(hashes[to])) {
                page[taken++] = to;
            }
            to++;
        }
        String metadata = "\"resourceVersion\":\"" + listVersion + "\"";
        if (to < objects.length) {
            // a selected list cannot know how many remain without scanning on; kube-apiserver leaves it out too
            metadata += ",\"continue\":\"" + listVersion + "-" + to + "\""
                    + (shard == null ? ",\"remainingItemCount\":" + (objects.length - to) : "");
        }
        if (shard != null) {
            metadata += ",\"shardInfo\":{\"selector\":\"" + shard + "\"}";
        }
        byte[] head = ("{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{" + metadata + "},\"items\":[")
                .getBytes(StandardCharsets.UTF_8);
        long length = head.length + END_ITEMS.length + Math.max(0, taken - 1);
        for (int k = 0; k < taken; k++) {
            length += objects[page[k]].length;
        }
        exchange.sendResponseHeaders(200, length);
        try (OutputStream out = new BufferedOutputStream(exchange.getResponseBody(), 1 << 16)) {
            out.write(head);
            for (int k = 0; k < taken; k++) {
                if (k > 0) {
                    out.write(COMMA);
                }
                out.write(objects[page[k]]);
            }
            out.write(END_ITEMS);
        }
    }

    private void watch(HttpExchange exchange, Map<String, String> query) throws IOException {
        String since = query.get("resourceVersion");
        if (since == null || since.isEmpty() || since.equals("0")) {
            status(exchange, 400, "BadRequest", "this server serves watches from a list's resourceVersion only");
            return;
        }
        long from = Long.parseLong(since);
        long seconds = query.containsKey("timeoutSeconds") ? Long.parseLong(query.get("timeoutSeconds"))
                : DEFAULT_WATCH_SECONDS;
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        exchange.sendResponseHeaders(200, 0);
        long expiredAt;
        synchronized (lock) {
            long left;
            while (from >= horizon && !closed && (left = deadline - System.nanoTime()) > 0) {
                try {
                    lock.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            expiredAt = from < horizon ? horizon : 0;
        }
        if (expiredAt != 0) {
            String line = "{\"type\":\"ERROR\",\"object\":" + statusJson(410, "Expired",
                    "too old resource version: " + from + " (" + expiredAt + ")") + "}\n";
            OutputStream out = exchange.getResponseBody();
            out.write(line.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }

    private static void status(HttpExchange exchange, int code, String reason, String message) throws IOException {
        byte[] body = statusJson(code, reason, message).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(code, body.length);
        exchange.getResponseBody().write(body);
    }

    private static String statusJson(int code, String reason, String message) {
        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                + message + "\",\"reason\":\"" + reason + "\",\"code\":" + code + "}";
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new HashMap<>();
        if (raw == null) {
            return query;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            query.put(key, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return query;
    }

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
        server.stop(0);
        executor.shutdownNow();
    }
}
