package dev.watchkeeper.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A minimal byte-replaying API server (JDK HttpServer, chunked): discovery for core v1, an empty ConfigMap list at
 * resourceVersion 1, and on the first watch the pre-rendered events 0..n-1 of {@link ConfigMapBytes}. Later watches
 * stay open and silent until {@link #close()}, so a client's rewatch neither errors nor competes for the CPU.
 */
final class ReplayServer implements AutoCloseable {

    /** Discovery of core v1 with ConfigMaps only. */
    static final byte[] DISCOVERY = ("{\"kind\":\"APIResourceList\",\"groupVersion\":\"v1\",\"resources\":["
            + "{\"name\":\"configmaps\",\"singularName\":\"configmap\",\"namespaced\":true,\"kind\":\"ConfigMap\","
            + "\"verbs\":[\"get\",\"list\",\"watch\"]}]}").getBytes(StandardCharsets.UTF_8);
    private static final byte[] EMPTY_LIST = "{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[]}"
            .getBytes(StandardCharsets.UTF_8);

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "replay-server");
        t.setDaemon(true);
        return t;
    });
    private final ConfigMapBytes events;
    private final int count;
    private final AtomicBoolean streamed = new AtomicBoolean();
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile long streamStartNanos;
    private volatile long streamEndNanos;
    private volatile long bytesSent;

    ReplayServer(ConfigMapBytes events, int count) throws IOException {
        this.events = events;
        this.count = count;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** When the first watch started streaming ({@link System#nanoTime()}), 0 before. */
    long streamStartNanos() {
        return streamStartNanos;
    }

    long bytesSent() {
        return bytesSent;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String query = exchange.getRequestURI().getRawQuery();
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            if (path.equals("/api/v1")) {
                exchange.sendResponseHeaders(200, DISCOVERY.length);
                exchange.getResponseBody().write(DISCOVERY);
            } else if (!path.endsWith("/configmaps")) {
                exchange.sendResponseHeaders(404, -1);
            } else if (query != null && (query.contains("watch=true") || query.contains("watch=1"))) {
                watch(exchange);
            } else {
                exchange.sendResponseHeaders(200, EMPTY_LIST.length);
                exchange.getResponseBody().write(EMPTY_LIST);
            }
        }
    }

    private void watch(HttpExchange exchange) throws IOException {
        exchange.sendResponseHeaders(200, 0);
        if (!streamed.compareAndSet(false, true)) {
            try {
                closed.await(10, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        streamStartNanos = System.nanoTime();
        CountingStream counting = new CountingStream(exchange.getResponseBody());
        OutputStream out = new BufferedOutputStream(counting, 1 << 16);
        try {
            for (int i = 0; i < count; i++) {
                events.writeEvent(out, i);
            }
            out.flush();
        } catch (IOException clientWentAway) {
            // the consumer stops reading once it has counted the last event
        }
        bytesSent = counting.bytes;
        streamEndNanos = System.nanoTime();
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    private static final class CountingStream extends OutputStream {
        private final OutputStream out;
        long bytes;

        CountingStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            bytes += len;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }
    }
}
