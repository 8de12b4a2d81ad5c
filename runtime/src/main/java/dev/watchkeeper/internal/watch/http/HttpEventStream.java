package dev.watchkeeper.internal.watch.http;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import dev.watchkeeper.internal.json.JsonFields;
import dev.watchkeeper.internal.json.ObjectDecoder;
import dev.watchkeeper.internal.watch.EventStream;
import dev.watchkeeper.internal.watch.WireEvent;
import dev.watchkeeper.store.CachedObject;
import io.kubernetes.client.common.KubernetesObject;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.Response;
import okio.BufferedSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.unit.DataSize;

/**
 * Reads a watch response line by line and decodes each line into a {@link WireEvent}. The common line, a change, is
 * scanned in one pass over its bytes ({@link ObjectScanner}): its type and its object's metadata are read, and the
 * object's bytes kept for decoding on demand; any other line, or one the scanner does not read, is read as a JSON
 * tree, which explains what is wrong with it. A line that is not JSON breaks the stream
 * ({@link IOException}), and so does a line longer than the limit, which is never buffered whole; a well-formed
 * event that cannot be used becomes {@link WireEvent.Undecodable} and the stream goes on.
 */
final class HttpEventStream<T extends KubernetesObject> implements EventStream<T> {

    private static final Logger log = LoggerFactory.getLogger(HttpEventStream.class);
    private static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";
    private static final long TOO_LONG = -2;
    private static final Pattern COLUMN = Pattern.compile("at line \\d+ column (\\d+)");

    private final Response response;
    private final BufferedSource source;
    private final ObjectDecoder<T> decoder;
    private final ObjectScanner<T> scanner;
    private final Duration idleTimeout;
    private final DataSize maxLine;
    /** The line being read; grown to the longest line so far. */
    private byte[] line = new byte[4096];

    HttpEventStream(Response response, ObjectDecoder<T> decoder, ObjectScanner<T> scanner, Duration idleTimeout,
            DataSize maxLine, Duration deadline) {
        this.idleTimeout = idleTimeout;
        this.maxLine = maxLine;
        this.response = response;
        this.source = response.body().source();
        this.decoder = decoder;
        this.scanner = scanner;
        if (deadline != null) {
            source.timeout().deadline(deadline.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public WireEvent<T> next() throws IOException {
        int length;
        do {
            length = readLine();
            if (length < 0) {
                return null;
            }
        } while (isBlank(length));
        return decode(length);
    }

    private boolean isBlank(int length) {
        for (int i = 0; i < length; i++) {
            byte b = line[i];
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n' && b != '\f' && b != 0x0b) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads a line of at most {@code maxLine} bytes into {@link #line}, buffering no more than that, and returns its
     * length without the line break, or -1 at the end of the stream; IO errors are rephrased, since OkHttp's own
     * messages may quote the payload.
     */
    private int readLine() throws IOException {
        long limit = maxLine.toBytes();
        long newline;
        try {
            newline = source.indexOf((byte) '\n', 0, limit + 1);
            if (newline < 0 && source.request(limit + 1)) {
                newline = TOO_LONG;
            }
        } catch (InterruptedIOException e) {
            throw new IOException("no data within " + idleTimeout.toSeconds() + "s (idle timeout)"
                    + " or before the initial-events deadline", e);
        } catch (IOException e) {
            throw new IOException("the connection broke mid-stream (" + e.getClass().getSimpleName() + ")", e);
        }
        if (newline == TOO_LONG) {
            throw new IOException("the server sent an event line longer than the limit of " + text(maxLine)
                    + " (watchkeeper.watch.max-event-size)");
        }
        try {
            int length = (int) (newline < 0 ? source.getBuffer().size() : newline);
            if (newline < 0 && length == 0) {
                return -1;
            }
            if (line.length < length) {
                line = new byte[Math.max(length, line.length * 2)];
            }
            for (int read = 0; read < length; ) {
                read += source.read(line, read, length - read);
            }
            if (newline >= 0) {
                source.skip(1);
            }
            return length > 0 && line[length - 1] == '\r' ? length - 1 : length;
        } catch (IOException e) {
            throw new IOException("the connection broke mid-stream (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    /** {@code 16MB}, {@code 512KB} or {@code 1000B}, as the property is written. */
    private static String text(DataSize size) {
        long bytes = size.toBytes();
        if (bytes % DataSize.ofMegabytes(1).toBytes() == 0) {
            return size.toMegabytes() + "MB";
        }
        return bytes % DataSize.ofKilobytes(1).toBytes() == 0 ? size.toKilobytes() + "KB" : bytes + "B";
    }

    private WireEvent<T> decode(int length) throws IOException {
        ObjectScanner.ScannedChange<T> change = scanner.change(line, length);
        if (change != null) {
            return new WireEvent.Change<>(change.type(), change.object(), change.object().resourceVersion());
        }
        return decodeTree(new String(line, 0, length, StandardCharsets.UTF_8));
    }

    private static WireEvent.ChangeType changeType(String type) {
        return switch (type) {
            case "ADDED" -> WireEvent.ChangeType.ADDED;
            case "MODIFIED" -> WireEvent.ChangeType.MODIFIED;
            case "DELETED" -> WireEvent.ChangeType.DELETED;
            default -> null;
        };
    }

    private WireEvent<T> decodeTree(String line) throws IOException {
        JsonElement root;
        try {
            root = JsonParser.parseString(line);
        } catch (JsonParseException e) {
            log.debug("watch line is not JSON: {}", ApiFailures.snippet(line));
            throw new IOException("the server sent a line that is not JSON (" + whatIsWrong(e) + ")", e);
        }
        if (!root.isJsonObject()) {
            log.debug("watch line is not a JSON object: {}", ApiFailures.snippet(line));
            throw new IOException("the server sent a line that is not a JSON object");
        }
        JsonObject event = root.getAsJsonObject();
        String type = JsonFields.string(event, "type");
        JsonElement object = event.get("object");
        if (type == null) {
            return new WireEvent.Undecodable<>("an event without a type" + JsonFields.where(object),
                    JsonFields.resourceVersion(object));
        }
        return switch (type) {
            case "ADDED", "MODIFIED", "DELETED" -> change(changeType(type), object);
            case "BOOKMARK" -> new WireEvent.Bookmark<>(JsonFields.resourceVersion(object),
                    "true".equals(JsonFields.string(
                            JsonFields.object(JsonFields.object(object, "metadata"), "annotations"),
                            INITIAL_EVENTS_END)));
            case "ERROR" -> errorStatus(object);
            default -> new WireEvent.Undecodable<>("an event of unknown type '" + ApiFailures.snippet(type) + "'"
                    + JsonFields.where(object), JsonFields.resourceVersion(object));
        };
    }

    /**
     * Where the line stops being JSON; Gson's own message would advise a lenient reader and quote a path into the
     * object, which may name its data's keys.
     */
    private static String whatIsWrong(JsonParseException e) {
        Matcher at = COLUMN.matcher(String.valueOf(e.getMessage()));
        String column = at.find() ? " at column " + at.group(1) : "";
        return (e.getCause() instanceof EOFException ? "it ends early" : "malformed") + column;
    }

    private WireEvent<T> change(WireEvent.ChangeType type, JsonElement object) {
        ObjectDecoder.Decoded<T> decoded = decoder.decode(object);
        if (decoded.object() == null) {
            return new WireEvent.Undecodable<>(type + " of " + decoded.problem(), decoded.resourceVersion());
        }
        return new WireEvent.Change<>(type, CachedObject.of(decoded.object()), decoded.resourceVersion());
    }

    private static <T> WireEvent<T> errorStatus(JsonElement status) {
        int code = 0;
        String codeText = JsonFields.string(status, "code");
        if (codeText != null) {
            try {
                code = Integer.parseInt(codeText);
            } catch (NumberFormatException e) {
                log.debug("ERROR event with a code that is not a number: {}", ApiFailures.snippet(codeText));
            }
        }
        String reason = JsonFields.string(status, "reason");
        String message = JsonFields.string(status, "message");
        return new WireEvent.ErrorStatus<>(code, reason == null ? "" : reason,
                message == null ? "" : ApiFailures.snippet(message));
    }

    @Override
    public void clearDeadline() {
        source.timeout().clearDeadline();
    }

    /** Closes the response; call it on the reading thread (another thread cancels through the call instead). */
    @Override
    public void close() {
        response.close();
    }
}
