package dev.watchkeeper.bench;

import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.util.concurrent.atomic.LongAdder;
import okhttp3.Interceptor;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.ForwardingSource;
import okio.Okio;

/**
 * What the API server sent one client, counted at the HTTP layer: an OkHttp network interceptor on the client counts
 * its requests and the response body bytes as they come off the connection (a watch's too, as its stream is read):
 * ConfigMap lists, ConfigMap watches and everything else (the member Leases, discovery) apart.
 */
final class TrafficCounter implements Interceptor {

    /** Requests made and response body bytes received. */
    record Traffic(long requests, long bytes) {

        Traffic minus(Traffic earlier) {
            return new Traffic(requests - earlier.requests, bytes - earlier.bytes);
        }

        Traffic plus(Traffic other) {
            return new Traffic(requests + other.requests, bytes + other.bytes);
        }
    }

    /** Requests and bytes of one kind. */
    private static final class Count {
        final LongAdder requests = new LongAdder();
        final LongAdder bytes = new LongAdder();

        Traffic traffic() {
            return new Traffic(requests.sum(), bytes.sum());
        }
    }

    /** All three kinds at one moment. */
    record Usage(Traffic lists, Traffic watches, Traffic other) {

        static final Usage NONE = new Usage(new Traffic(0, 0), new Traffic(0, 0), new Traffic(0, 0));

        Usage minus(Usage earlier) {
            return new Usage(lists.minus(earlier.lists), watches.minus(earlier.watches), other.minus(earlier.other));
        }

        Usage plus(Usage more) {
            return new Usage(lists.plus(more.lists), watches.plus(more.watches), other.plus(more.other));
        }
    }

    private final Count lists = new Count();
    private final Count watches = new Count();
    private final Count other = new Count();

    /** Counts what {@code client} receives from now on. */
    static TrafficCounter on(ApiClient client) {
        TrafficCounter counter = new TrafficCounter();
        client.setHttpClient(client.getHttpClient().newBuilder().addNetworkInterceptor(counter).build());
        return counter;
    }

    /** Everything so far. */
    Usage usage() {
        return new Usage(lists(), watches(), other());
    }

    /** The ConfigMap lists (each page a request) so far. */
    Traffic lists() {
        return lists.traffic();
    }

    /** The ConfigMap watches so far. */
    Traffic watches() {
        return watches.traffic();
    }

    /** Every other request so far: member Leases, discovery. */
    Traffic other() {
        return other.traffic();
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Count count = !chain.request().url().encodedPath().endsWith("/configmaps") ? other
                : "true".equals(chain.request().url().queryParameter("watch")) ? watches : lists;
        count.requests.increment();
        Response response = chain.proceed(chain.request());
        ResponseBody body = response.body();
        LongAdder bytes = count.bytes;
        ForwardingSource counted = new ForwardingSource(body.source()) {
            @Override
            public long read(Buffer sink, long byteCount) throws IOException {
                long read = super.read(sink, byteCount);
                if (read > 0) {
                    bytes.add(read);
                }
                return read;
            }
        };
        return response.newBuilder()
                .body(ResponseBody.create(Okio.buffer(counted), body.contentType(), body.contentLength())).build();
    }
}
