package dev.watchkeeper.test.chaos;

import dev.watchkeeper.test.stub.Replies;
import dev.watchkeeper.test.stub.StatusReply;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSource;

/**
 * A fault-injecting HTTPS proxy in front of a real API server. It terminates TLS with its own certificate, forwards
 * each request (with the client's credentials) over TLS through an OkHttp client that trusts the server, and writes
 * the answer back itself — one request per connection, watch bodies re-chunked one event line per chunk — so it can
 * fail requests, drop or truncate a chunk, insert a malformed line, go silent or trickle. Silences and pauses are
 * timed by {@link #timers}: a silent watch's drop is scheduled for when the silence ends, and a trickling connection
 * is held, sending nothing, until its timer resumes it.
 */
final class TlsFaultProxy implements AutoCloseable {

    private static final Object END = new Object();
    private static final Object BROKEN = new Object();
    private static final Pattern RESOURCE_VERSION = Pattern.compile("[?&]resourceVersion=(\\d+)");

    private final ServerSocket server;
    private final OkHttpClient upstream;
    private final String upstreamBase;
    private final ExecutorService threads;
    /** Ends silences (drops the connection) and pauses (resumes the writing thread) when they are over. */
    private final ScheduledExecutorService timers;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Set<OpenWatch> watches = ConcurrentHashMap.newKeySet();
    private final AtomicInteger requests = new AtomicInteger();
    /** {@code METHOD path} of each request, in the order they arrived. */
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger failing = new AtomicInteger();
    private final AtomicInteger failureCode = new AtomicInteger(500);
    private final AtomicInteger throttled = new AtomicInteger();
    private final AtomicInteger expiringStarts = new AtomicInteger();
    private volatile Duration retryAfter = Duration.ofSeconds(1);
    private volatile Duration bodyPause = Duration.ZERO;
    private volatile long outageEndsAt = System.nanoTime();

    TlsFaultProxy(ProxyCertificate certificate, OkHttpClient upstream, String upstreamBase) throws IOException {
        this.server = certificate.serverContext().getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.upstream = upstream;
        this.upstreamBase = upstreamBase;
        AtomicInteger count = new AtomicInteger();
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, "chaos-proxy-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "chaos-proxy-timer");
            thread.setDaemon(true);
            return thread;
        });
        threads.execute(this::accept);
    }

    /** {@code METHOD path} (without the query) of each request so far, in the order they arrived. */
    List<String> received() {
        return List.copyOf(received);
    }

    /** Watches streaming through the proxy now. */
    int openWatches() {
        return watches.size();
    }

    String url() {
        return "https://127.0.0.1:" + server.getLocalPort();
    }

    int requestCount() {
        return requests.get();
    }

    void failRequests(int count, int code) {
        failureCode.set(code);
        failing.set(count);
    }

    void throttle(int count, Duration retryAfter) {
        this.retryAfter = retryAfter;
        throttled.set(count);
    }

    void expireWatchStarts(int count) {
        expiringStarts.set(count);
    }

    void slowBodies(Duration pause) {
        bodyPause = pause;
    }

    /** Answers 503 for {@code duration} of real time; open watches end. */
    void outage(Duration duration) {
        outageEndsAt = System.nanoTime() + duration.toNanos();
        disruptWatches(FaultKind.OUTAGE, Duration.ZERO);
    }

    /** Stops every fault of requests to come. */
    void stopFaults() {
        failing.set(0);
        throttled.set(0);
        expiringStarts.set(0);
        bodyPause = Duration.ZERO;
        outageEndsAt = System.nanoTime();
    }

    /** Has every open watch do {@code kind} next: one of the mid-stream kinds, or OUTAGE to end normally. */
    void disruptWatches(FaultKind kind, Duration silence) {
        watches.forEach(w -> w.disruptions.add(new Disruption(kind, silence)));
    }

    @Override
    public void close() throws IOException {
        server.close();
        sockets.forEach(TlsFaultProxy::closeQuietly);
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            timers.shutdownNow();
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                sockets.add(socket);
                threads.execute(() -> serve(socket));
            } catch (IOException | java.util.concurrent.RejectedExecutionException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            String requestLine = readLine(in);
            if (requestLine == null || requestLine.isEmpty()) {
                return;
            }
            Map<String, String> headers = new HashMap<>();
            for (String line = readLine(in); line != null && !line.isEmpty(); line = readLine(in)) {
                int colon = line.indexOf(':');
                headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
            }
            byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
            requests.incrementAndGet();
            String[] parts = requestLine.split(" ");
            received.add(parts[0] + " " + parts[1].replaceFirst("\\?.*", ""));
            String method = parts[0];
            String target = parts[1];
            boolean watch = target.contains("watch=true");
            if (injectedAnswer(out, target, watch)) {
                return;
            }
            Request.Builder request = new Request.Builder().url(upstreamBase + target)
                    .method(method, method.equals("GET") || method.equals("DELETE") && body.length == 0 ? null
                            : RequestBody.create(body, MediaType.parse(headers.getOrDefault("content-type",
                                    "application/json"))));
            for (String name : new String[] {"authorization", "accept", "content-type"}) {
                if (headers.containsKey(name)) {
                    request.header(name, headers.get(name));
                }
            }
            // Plain bodies: OkHttp's transparent gzip fails a watch the API server compressed when it ends.
            request.header("Accept-Encoding", "identity");
            Call call = upstream.newCall(request.build());
            try (Response response = call.execute()) {
                String type = response.header("Content-Type", "application/json");
                if (watch && response.isSuccessful()) {
                    stream(socket, out, response, call, resourceVersion(target));
                } else {
                    respond(out, response.code(), type, response.body().bytes(), null);
                }
            }
        } catch (IOException e) {
            // the client went away, or a fault dropped the connection
        } finally {
            sockets.remove(socket);
        }
    }

    /** Answers the request with an injected failure if one is due; returns whether it did. */
    private boolean injectedAnswer(OutputStream out, String target, boolean watch) throws IOException {
        if (System.nanoTime() - outageEndsAt < 0) {
            respond(out, Replies.serviceUnavailable());
            return true;
        }
        if (failing.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            respond(out, failureCode.get() == 503 ? Replies.serviceUnavailable() : Replies.internalError());
            return true;
        }
        if (throttled.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            respond(out, Replies.tooManyRequests((int) Math.max(1, retryAfter.toSeconds())));
            return true;
        }
        if (watch && expiringStarts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            String version = resourceVersion(target);
            respond(out, Replies.tooOldResourceVersion(version, version));
            return true;
        }
        return false;
    }

    private void respond(OutputStream out, StatusReply status) throws IOException {
        respond(out, status.code(), "application/json", status.json().getBytes(StandardCharsets.UTF_8),
                status.retryAfterSeconds() == null ? null : status.retryAfterSeconds().toString());
    }

    /** The resourceVersion a request names, or "0". */
    private static String resourceVersion(String target) {
        Matcher version = RESOURCE_VERSION.matcher(target);
        return version.find() ? version.group(1) : "0";
    }

    private void stream(Socket socket, OutputStream out, Response response, Call call, String since)
            throws IOException {
        OpenWatch watch = new OpenWatch();
        watches.add(watch);
        BlockingQueue<Object> lines = new LinkedBlockingQueue<>();
        threads.execute(() -> {
            try {
                BufferedSource source = response.body().source();
                for (String line = source.readUtf8Line(); line != null; line = source.readUtf8Line()) {
                    lines.add(line);
                }
                lines.add(END);
            } catch (IOException | IllegalStateException e) {
                lines.add(BROKEN);
            }
        });
        try {
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            while (true) {
                Disruption disruption = watch.disruptions.poll();
                if (disruption != null && !disrupt(socket, out, disruption, since)) {
                    return;
                }
                Object item = lines.poll(20, TimeUnit.MILLISECONDS);
                if (item == END) {
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    return;
                }
                if (item == BROKEN) {
                    drop(socket);
                    return;
                }
                if (item instanceof String line) {
                    chunk(out, (line + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            watches.remove(watch);
            call.cancel();
        }
    }

    /** Carries out a disruption; returns whether the watch goes on. */
    private boolean disrupt(Socket socket, OutputStream out, Disruption disruption, String since)
            throws IOException, InterruptedException {
        switch (disruption.kind()) {
            case MALFORMED_LINE -> {
                chunk(out, "{\"type\":\"MODIFIED\",\"object\":{\"kind\":<html>\n".getBytes(StandardCharsets.UTF_8));
                return true;
            }
            case EXPIRED_MID_STREAM -> {
                chunk(out, (Replies.expiredEvent(since, since).text() + "\n").getBytes(StandardCharsets.UTF_8));
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                return false;
            }
            case TRUNCATED_CHUNK -> {
                byte[] line = "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"ConfigMap\",\"metadata\":{}}}\n"
                        .getBytes(StandardCharsets.UTF_8);
                out.write((Integer.toHexString(line.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(line, 0, line.length / 2);
                out.flush();
                drop(socket);
                return false;
            }
            case IDLE_PAST_TIMEOUT -> {
                // Nothing more is forwarded; the connection stays open until the drop scheduled for the silence's end.
                ScheduledFuture<?> dropped = schedule(() -> drop(socket), disruption.silence());
                try {
                    dropped.get();
                } catch (InterruptedException e) {
                    dropped.cancel(false);
                    throw e;
                } catch (ExecutionException e) {
                    throw new IllegalStateException("dropping a silent watch failed", e.getCause());
                }
                return false;
            }
            case OUTAGE -> {
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                return false;
            }
            default -> {
                drop(socket); // RESET_MID_STREAM
                return false;
            }
        }
    }

    private void chunk(OutputStream out, byte[] bytes) throws IOException {
        out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        Duration pause = bodyPause;
        if (pause.isZero()) {
            out.write(bytes);
        } else {
            int half = bytes.length / 2;
            out.write(bytes, 0, half);
            out.flush();
            hold(pause);
            out.write(bytes, half, bytes.length - half);
        }
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private void respond(OutputStream out, int code, String type, byte[] body, String retryAfterSeconds)
            throws IOException {
        StringBuilder head = new StringBuilder("HTTP/1.1 ").append(code).append(' ').append(reason(code))
                .append("\r\nContent-Type: ").append(type)
                .append("\r\nContent-Length: ").append(body.length)
                .append("\r\nConnection: close\r\n");
        if (retryAfterSeconds != null) {
            head.append("Retry-After: ").append(retryAfterSeconds).append("\r\n");
        }
        out.write(head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
        Duration pause = bodyPause;
        for (int at = 0; at < body.length; at += 1024) {
            out.write(body, at, Math.min(1024, body.length - at));
            if (!pause.isZero()) {
                out.flush();
                hold(pause);
            }
        }
        out.flush();
    }

    /** Holds the connection, sending nothing more, until a timer set for {@code pause} from now resumes it. */
    private void hold(Duration pause) throws IOException {
        CountDownLatch resumed = new CountDownLatch(1);
        ScheduledFuture<?> resumption = schedule(resumed::countDown, pause);
        try {
            resumed.await();
        } catch (InterruptedException e) {
            resumption.cancel(false);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while trickling a body");
        }
    }

    /** Runs {@code action} on the timer thread once {@code delay} has passed. */
    private ScheduledFuture<?> schedule(Runnable action, Duration delay) throws InterruptedIOException {
        try {
            return timers.schedule(action, delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            throw new InterruptedIOException("the proxy is closed");
        }
    }

    /** Drops the connection at once, with a reset rather than an orderly close where the platform allows. */
    private static void drop(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            // closing below is what matters
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already broken
        }
    }

    private static String reason(int code) {
        return switch (code) {
            case 200 -> "OK";
            case 201 -> "Created";
            case 410 -> "Gone";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            default -> "Status";
        };
    }

    /** Reads a CRLF-terminated header line; null at end of stream. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != -1; b = in.read()) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.US_ASCII);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.US_ASCII);
    }

    private record Disruption(FaultKind kind, Duration silence) {
    }

    private static final class OpenWatch {
        final BlockingQueue<Disruption> disruptions = new LinkedBlockingQueue<>();
    }
}
