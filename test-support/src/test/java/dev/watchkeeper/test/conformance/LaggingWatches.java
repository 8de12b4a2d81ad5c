package dev.watchkeeper.test.conformance;

import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import okhttp3.Interceptor;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;
import okio.Okio;
import okio.Source;
import okio.Timeout;

/**
 * Delays a client's watch events by a fixed lag, and spaces them a little apart, as a loaded API server or a long
 * network path does, while the answers to its writes come at once. A thread per watch reads the stream as it comes
 * and cuts it into events (one JSON document per line) into a {@link DelayQueue}, which hands the client each event
 * once it is {@code lag} old and {@code spacing} after the one handed before, so events the server sent together
 * still reach the cache one by one.
 */
final class LaggingWatches implements Interceptor {

    /**
     * A chunk of the stream and when it arrived; an empty chunk ends it. It is due {@code lag} after it arrived and
     * {@code spacing} after its stream last handed a chunk to the client; chunks leave the queue in arrival order.
     */
    private final class Chunk implements Delayed {
        final LaggedStream stream;
        final long sequence;
        final byte[] bytes;
        final long arrivedNanos;
        final IOException failure;

        Chunk(LaggedStream stream, byte[] bytes, IOException failure) {
            this.stream = stream;
            this.sequence = stream.arrived++;
            this.bytes = bytes;
            this.arrivedNanos = System.nanoTime();
            this.failure = failure;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            long due = Math.max(arrivedNanos + lagNanos, stream.lastHandedNanos + spacingNanos);
            return unit.convert(due - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(sequence, ((Chunk) other).sequence);
        }
    }

    /** One watch's chunks on their way to the client. */
    private static final class LaggedStream {
        final DelayQueue<Chunk> due = new DelayQueue<>();
        /** Chunks that arrived so far; written by the reading thread only. */
        long arrived;
        /** When the client was last handed a chunk; written by the client's thread only. */
        volatile long lastHandedNanos;
    }

    private final long lagNanos;
    private final long spacingNanos;

    LaggingWatches(Duration lag, Duration spacing) {
        this.lagNanos = lag.toNanos();
        this.spacingNanos = spacing.toNanos();
    }

    /** {@code client} with its watches lagging. */
    ApiClient attachTo(ApiClient client) {
        client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(this).build());
        return client;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Response response = chain.proceed(chain.request());
        if (!RequestLog.isWatch(chain.request().url()) || response.body() == null) {
            return response;
        }
        ResponseBody body = response.body();
        LaggedStream stream = new LaggedStream();
        stream.lastHandedNanos = System.nanoTime() - spacingNanos; // the first chunk waits for its lag only
        Thread reader = new Thread(() -> carry(body.source(), stream), "lagging-watch");
        reader.setDaemon(true);
        reader.start();
        Source lagged = new Source() {
            private Chunk current;
            private int offset;

            @Override
            public long read(Buffer sink, long byteCount) throws IOException {
                try {
                    if (current == null || offset == current.bytes.length) {
                        current = stream.due.take(); // the next chunk, once it is due
                        offset = 0;
                        stream.lastHandedNanos = System.nanoTime();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while the watch lags");
                }
                if (current.failure != null) {
                    throw current.failure;
                }
                if (current.bytes.length == 0) {
                    return -1;
                }
                int count = (int) Math.min(byteCount, current.bytes.length - offset);
                sink.write(current.bytes, offset, count);
                offset += count;
                return count;
            }

            @Override
            public Timeout timeout() {
                return Timeout.NONE;
            }

            @Override
            public void close() {
                body.close();
            }
        };
        BufferedSource source = Okio.buffer(lagged);
        return response.newBuilder().body(ResponseBody.create(source, body.contentType(), -1)).build();
    }

    private void carry(BufferedSource upstream, LaggedStream stream) {
        try {
            while (!upstream.exhausted()) {
                long end = upstream.indexOf((byte) '\n');
                byte[] event = end == -1 ? upstream.readByteArray() : upstream.readByteArray(end + 1);
                stream.due.add(new Chunk(stream, event, null));
            }
            stream.due.add(new Chunk(stream, new byte[0], null));
        } catch (IOException e) {
            stream.due.add(new Chunk(stream, new byte[0], e));
        }
    }
}
