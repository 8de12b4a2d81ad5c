package dev.watchkeeper.watch.http;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import dev.watchkeeper.watch.EventStream;
import dev.watchkeeper.watch.WireEvent;
import io.kubernetes.client.common.KubernetesObject;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.StringReader;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.Response;
import okio.BufferedSource;
import org.springframework.util.unit.DataSize;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a watch response line by line and decodes each line into a {@link WireEvent}. The common line, a change
 * with {@code type} before {@code object}, is read in one streaming pass; any other line, or one that fails there, is
 * read as a JSON tree, which explains what is wrong with it. A line that is not JSON breaks the stream
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
    private final Duration idleTimeout;
    private final DataSize maxLine;

    HttpEventStream(Response response, ObjectDecoder<T> decoder, Duration idleTimeout, DataSize maxLine,
            Duration deadline) {
        this.idleTimeout = idleTimeout;
        this.maxLine = maxLine;
        this.response = response;
        this.source = response.body().source();
        this.decoder = decoder;
        if (deadline != null) {
            source.timeout().deadline(deadline.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public WireEvent<T> next() throws IOException {
        String line;
        do {
            line = readLine();
            if (line == null) {
                return null;
            }
        } while (line.isBlank());
        return decode(line);
    }

    /**
     * Reads a line of at most {@code maxLine} bytes, buffering no more than that; IO errors are rephrased, since
     * OkHttp's own messages may quote the payload.
     */
    private String readLine() throws IOException {
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
            String line = newline < 0 ? source.readUtf8() : source.readUtf8(newline);
            if (newline >= 0) {
                source.skip(1);
            } else if (line.isEmpty()) {
                return null;
            }
            return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
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

    private WireEvent<T> decode(String line) throws IOException {
        WireEvent<T> change = decoder.streams() ? readChange(line) : null;
        return change != null ? change : decodeTree(line);
    }

    /**
     * {@code {"type":"ADDED|MODIFIED|DELETED","object":{...}}} in one pass, or null for any other line and for any
     * failure: the tree path then decodes the line again and reports it.
     */
    private WireEvent<T> readChange(String line) {
        try (JsonReader reader = new JsonReader(new StringReader(line))) {
            reader.beginObject();
            if (!"type".equals(reader.nextName()) || reader.peek() != JsonToken.STRING) {
                return null;
            }
            WireEvent.ChangeType type = changeType(reader.nextString());
            if (type == null || !"object".equals(reader.nextName())) {
                return null;
            }
            T object = decoder.read(reader);
            if (object == null || object.getMetadata() == null || object.getMetadata().getName() == null) {
                return null;
            }
            while (reader.hasNext()) {
                String name = reader.nextName();
                if (name.equals("type") || name.equals("object")) {
                    // a repeated key: the tree path keeps the last value, as the API server's own JSON does
                    return null;
                }
                reader.skipValue();
            }
            reader.endObject();
            if (reader.peek() != JsonToken.END_DOCUMENT) {
                return null;
            }
            return new WireEvent.Change<>(type, object, object.getMetadata().getResourceVersion());
        } catch (IOException | RuntimeException failed) {
            return null;
        }
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
        return new WireEvent.Change<>(type, decoded.object(), decoded.resourceVersion());
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
