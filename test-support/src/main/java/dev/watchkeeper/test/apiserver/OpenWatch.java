package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;
import com.sun.net.httpserver.HttpExchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One open watch: a chunked {@code 200} response writing one JSON event per line, flushed after each. Runs on the
 * request's thread until its timeout, {@link #end()}, {@link #expire(long)}, a {@link #disrupt disruption} that
 * ends it or the client going away.
 */
final class OpenWatch implements ObjectStore.WatchSink {

    private static final Logger log = LoggerFactory.getLogger(OpenWatch.class);
    private static final Object END = new Object();
    /** Wakes the stream to take a disruption, which goes before the events still queued. */
    private static final Object DISRUPTED = new Object();

    private final ObjectStore store;
    private final ApiResource resource;
    private final WatchFilter filter;
    private final Options options;
    private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final Queue<WatchDisruption> disruptions = new ConcurrentLinkedQueue<>();
    private long lastResourceVersion;

    /**
     * @param since                 replay history after this resourceVersion, or {@code null} to start with a
     *                              synthetic ADDED for every current object
     * @param sendInitialEvents     end the initial ADDED events with the {@code k8s.io/initial-events-end} bookmark
     * @param bookmarks             whether BOOKMARK events may be sent
     * @param timeout               when to end the stream normally, {@code null} for never
     * @param bookmarkInterval      how often to send a bookmark while idle
     * @param metadataOnly          show every object, bookmarks included, as {@code PartialObjectMetadata}
     */
    record Options(Long since, boolean sendInitialEvents, boolean bookmarks, Duration timeout,
                   Duration bookmarkInterval, boolean metadataOnly) {
    }

    OpenWatch(ObjectStore store, ApiResource resource, WatchFilter filter, Options options) {
        this.store = store;
        this.resource = resource;
        this.filter = filter;
        this.options = options;
    }

    /** Streams to the exchange until the watch ends; the caller closes the exchange. */
    void run(HttpCall call) throws IOException {
        HttpExchange exchange = call.exchange();
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        ObjectStore.Subscription subscription;
        try {
            subscription = store.subscribe(this, options.since());
        } catch (StatusException e) {
            exchange.sendResponseHeaders(200, 0);
            write(call.responseBody(), "ERROR", e.toStatus());
            return;
        }
        try {
            exchange.sendResponseHeaders(200, 0);
            stream(call.responseBody(), subscription);
        } catch (IOException e) {
            log.debug("watch of {} ended: the client went away ({})", resource.groupResource(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            store.unsubscribe(this);
        }
    }

    private void stream(OutputStream out, ObjectStore.Subscription subscription)
            throws IOException, InterruptedException {
        lastResourceVersion = subscription.resourceVersion();
        for (StoredEvent event : subscription.initialEvents()) {
            send(out, event);
        }
        if (options.sendInitialEvents()) {
            JsonObject bookmark = bookmark(subscription.resourceVersion());
            JsonObject annotations = new JsonObject();
            annotations.addProperty("k8s.io/initial-events-end", "true");
            bookmark.getAsJsonObject("metadata").add("annotations", annotations);
            write(out, "BOOKMARK", bookmark);
        }
        long deadline = options.timeout() == null ? Long.MAX_VALUE : System.nanoTime() + options.timeout().toNanos();
        long interval = options.bookmarkInterval().toNanos();
        long nextBookmark = System.nanoTime() + interval;
        while (true) {
            long now = System.nanoTime();
            if (now >= deadline) {
                if (options.bookmarks()) {
                    sendBookmarkIfIdle(out);
                }
                return;
            }
            if (options.bookmarks() && now >= nextBookmark) {
                sendBookmarkIfIdle(out);
                nextBookmark = now + interval;
            }
            long wakeUp = options.bookmarks() ? Math.min(deadline, nextBookmark) : deadline;
            Object item = queue.poll(Math.max(1, wakeUp - now), TimeUnit.NANOSECONDS);
            for (WatchDisruption disruption = disruptions.poll(); disruption != null; disruption = disruptions.poll()) {
                if (!disrupt(out, disruption)) {
                    return;
                }
            }
            if (item == END) {
                return;
            }
            if (item instanceof Expiry expiry) {
                write(out, "ERROR", Statuses.tooOldResourceVersion(lastResourceVersion, expiry.horizon()).toStatus());
                return;
            }
            if (item instanceof StoredEvent event) {
                send(out, event);
            }
        }
    }

    /** Carries out a disruption; returns whether the watch goes on. */
    private boolean disrupt(OutputStream out, WatchDisruption disruption) throws IOException, InterruptedException {
        if (disruption instanceof WatchDisruption.MalformedLine) {
            out.write("{\"type\":\"MODIFIED\",\"object\":{\"kind\":<html>\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            return true;
        }
        if (disruption instanceof WatchDisruption.Expire) {
            write(out, "ERROR", Statuses.tooOldResourceVersion(lastResourceVersion, lastResourceVersion).toStatus());
            return false;
        }
        if (disruption instanceof WatchDisruption.Truncate) {
            byte[] line = line("BOOKMARK", bookmark(lastResourceVersion));
            out.write(line, 0, line.length / 2);
            out.flush();
            throw new DroppedConnection("truncated a line of a watch of " + resource.groupResource());
        }
        if (disruption instanceof WatchDisruption.Stall stall) {
            // Events that arrive meanwhile are dropped: the client resumes from its last resourceVersion.
            long until = System.nanoTime() + stall.silence().toNanos();
            for (long left = stall.silence().toNanos(); left > 0; left = until - System.nanoTime()) {
                if (queue.poll(left, TimeUnit.NANOSECONDS) == END) {
                    return false;
                }
            }
        }
        throw new DroppedConnection("dropped a watch of " + resource.groupResource());
    }

    private void send(OutputStream out, StoredEvent event) throws IOException {
        lastResourceVersion = event.resourceVersion();
        Optional<String> type = visibleType(event);
        if (type.isPresent()) {
            write(out, type.get(), present(event.object()));
        }
    }

    private Optional<String> visibleType(StoredEvent event) {
        boolean now = filter.matches(event.object());
        if (!event.type().equals("MODIFIED")) {
            return now ? Optional.of(event.type()) : Optional.empty();
        }
        boolean before = filter.matches(event.previous());
        if (now) {
            return Optional.of(before ? "MODIFIED" : "ADDED");
        }
        return before ? Optional.of("DELETED") : Optional.empty();
    }

    private void sendBookmarkIfIdle(OutputStream out) throws IOException {
        Optional<Long> version = store.bookmarkVersion(this);
        if (version.isPresent()) {
            lastResourceVersion = version.get();
            write(out, "BOOKMARK", bookmark(version.get()));
        }
    }

    private JsonObject bookmark(long version) {
        JsonObject object = new JsonObject();
        object.addProperty("kind", resource.kind());
        object.addProperty("apiVersion", resource.apiVersion());
        JsonObject metadata = new JsonObject();
        metadata.addProperty("resourceVersion", Long.toString(version));
        object.add("metadata", metadata);
        return options.metadataOnly() ? MetadataFormat.of(object) : object;
    }

    private JsonObject present(JsonObject object) {
        return options.metadataOnly() ? MetadataFormat.of(object) : Presenter.atVersion(resource, object);
    }

    private static void write(OutputStream out, String type, JsonObject object) throws IOException {
        out.write(line(type, object));
        out.flush();
    }

    private static byte[] line(String type, JsonObject object) {
        JsonObject event = new JsonObject();
        event.addProperty("type", type);
        event.add("object", object);
        return (Json.GSON.toJson(event) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String groupResource() {
        return resource.groupResource();
    }

    @Override
    public void offer(StoredEvent event) {
        queue.add(event);
    }

    @Override
    public boolean idle() {
        return queue.isEmpty();
    }

    @Override
    public void expire(long horizon) {
        queue.add(new Expiry(horizon));
    }

    @Override
    public void end() {
        queue.add(END);
    }

    @Override
    public void disrupt(WatchDisruption disruption) {
        disruptions.add(disruption);
        queue.add(DISRUPTED);
    }

    private record Expiry(long horizon) {
    }
}
