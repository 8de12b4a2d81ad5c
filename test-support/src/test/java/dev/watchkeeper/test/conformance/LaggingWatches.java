package dev.watchkeeper.test.conformance;

import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
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
 * and cuts it into events (one JSON document per line); the client is handed each event once it is {@code lag} old
 * and {@code spacing} after the one before, so events the server sent together still reach the cache one by one.
 */
final class LaggingWatches implements Interceptor {

    /** A chunk of the stream and when it arrived; an empty chunk ends it. */
    private record Chunk(byte[] bytes, long arrivedNanos, IOException failure) {
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
        BlockingQueue<Chunk> line = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> carry(body.source(), line), "lagging-watch");
        reader.setDaemon(true);
        reader.start();
        Source lagged = new Source() {
            private Chunk current;
            private int offset;
            private long lastHandedNanos;

            @Override
            public long read(Buffer sink, long byteCount) throws IOException {
                try {
                    if (current == null || offset == current.bytes().length) {
                        current = line.take();
                        offset = 0;
                        long due = Math.max(current.arrivedNanos() + lagNanos, lastHandedNanos + spacingNanos);
                        long wait = due - System.nanoTime();
                        if (wait > 0) {
                            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                        }
                        lastHandedNanos = System.nanoTime();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while the watch lags");
                }
                if (current.failure() != null) {
                    throw current.failure();
                }
                if (current.bytes().length == 0) {
                    return -1;
                }
                int count = (int) Math.min(byteCount, current.bytes().length - offset);
                sink.write(current.bytes(), offset, count);
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

    private static void carry(BufferedSource upstream, BlockingQueue<Chunk> line) {
        try {
            while (!upstream.exhausted()) {
                long end = upstream.indexOf((byte) '\n');
                byte[] event = end == -1 ? upstream.readByteArray() : upstream.readByteArray(end + 1);
                line.add(new Chunk(event, System.nanoTime(), null));
            }
            line.add(new Chunk(new byte[0], System.nanoTime(), null));
        } catch (IOException e) {
            line.add(new Chunk(new byte[0], System.nanoTime(), e));
        }
    }
}
