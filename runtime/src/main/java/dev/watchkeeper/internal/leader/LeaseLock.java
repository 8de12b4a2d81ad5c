package dev.watchkeeper.internal.leader;

import com.google.gson.JsonParseException;
import dev.watchkeeper.internal.api.Calls;
import dev.watchkeeper.internal.json.ModelGson;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Preconditions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Response;

/**
 * The Lease a {@link LeaderElector} competes for (or a sharding member's Lease), written with optimistic
 * concurrency: an update carries the resourceVersion it was based on, so of two writers of one version only one wins
 * and the other gets 409 Conflict (client-go's {@code resourcelock.LeaseLock}). The calls are built by client-java's
 * {@link CoordinationV1Api}; their answers are read as the watchers read objects ({@link Calls}), so a field an API
 * server newer than the client sends is skipped.
 *
 * <p>Every call has a time limit, so a hanging connection cannot keep a leader believing it leads past its renew
 * deadline: the call is cancelled and fails.
 */
public final class LeaseLock {

    /** A Lease as read or written: the object (for its resourceVersion) and its record. */
    public record Observed(V1Lease lease, LeaseRecord record) {

        /** The Lease's annotation {@code key}, or {@code null}. */
        public String annotation(String key) {
            Map<String, String> annotations = lease.getMetadata() == null ? null : lease.getMetadata().getAnnotations();
            return annotations == null ? null : annotations.get(key);
        }
    }

    private final ApiClient client;
    /** Builds the calls, which {@link #call} sends. */
    private final CoordinationV1Api api;
    private final String namespace;
    private final String name;

    public LeaseLock(ApiClient client, String namespace, String name) {
        this.client = client;
        this.api = new CoordinationV1Api(client);
        this.namespace = namespace;
        this.name = name;
    }

    /** The Lease, or {@code null} when it does not exist. */
    public Observed get(Duration limit) throws ApiException {
        try {
            return observed(lease(limit, api.readNamespacedLease(name, namespace).buildCall(null)));
        } catch (ApiException e) {
            if (e.getCode() == 404) {
                return null;
            }
            throw e;
        }
    }

    /** Creates the Lease with {@code record}; 409 when someone created it first. */
    public Observed create(LeaseRecord record, Duration limit) throws ApiException {
        return create(new V1ObjectMeta(), record, limit);
    }

    /**
     * Creates the Lease with {@code record} and the labels and annotations of {@code metadata} (its name and
     * namespace are this lock's); 409 when someone created it first.
     */
    public Observed create(V1ObjectMeta metadata, LeaseRecord record, Duration limit) throws ApiException {
        V1Lease lease = new V1Lease().apiVersion("coordination.k8s.io/v1").kind("Lease")
                .metadata(metadata.name(name).namespace(namespace)).spec(record.toSpec());
        return observed(lease(limit, api.createNamespacedLease(namespace, lease).buildCall(null)));
    }

    /** Replaces the record of {@code current}; 409 when the Lease changed since {@code current} was read. */
    public Observed update(Observed current, LeaseRecord record, Duration limit) throws ApiException {
        return update(current, current.lease().getMetadata(), record, limit);
    }

    /**
     * Replaces the record of {@code current} and its metadata by {@code metadata} (which must carry
     * {@code current}'s resourceVersion); 409 when the Lease changed since {@code current} was read.
     */
    public Observed update(Observed current, V1ObjectMeta metadata, LeaseRecord record, Duration limit)
            throws ApiException {
        V1Lease lease = new V1Lease().apiVersion("coordination.k8s.io/v1").kind("Lease")
                .metadata(metadata.resourceVersion(current.lease().getMetadata().getResourceVersion()))
                .spec(record.toSpec());
        return observed(lease(limit, api.replaceNamespacedLease(name, namespace, lease).buildCall(null)));
    }

    /**
     * Deletes the Lease {@code current} shows, only if it is still that version (a precondition on its uid and
     * resourceVersion); 409 when it changed since, 404 when it is gone.
     */
    public static void delete(ApiClient client, Observed current, Duration limit) throws ApiException {
        CoordinationV1Api api = new CoordinationV1Api(client);
        V1ObjectMeta metadata = current.lease().getMetadata();
        V1DeleteOptions options = new V1DeleteOptions().preconditions(
                new V1Preconditions().uid(metadata.getUid()).resourceVersion(metadata.getResourceVersion()));
        call(limit, api.deleteNamespacedLease(metadata.getName(), metadata.getNamespace()).body(options)
                .buildCall(null)); // the answer (a Status) says nothing more than its code
    }

    /** The Leases of {@code namespace} that match {@code labelSelector}, in one unpaged, consistent list. */
    public static List<Observed> list(ApiClient client, String namespace, String labelSelector, Duration limit)
            throws ApiException {
        CoordinationV1Api api = new CoordinationV1Api(client);
        String answer = new String(call(limit, api.listNamespacedLease(namespace).labelSelector(labelSelector)
                .buildCall(null)), StandardCharsets.UTF_8);
        V1LeaseList list;
        try {
            list = ModelGson.around(client.getJSON().getGson()).fromJson(answer, V1LeaseList.class);
        } catch (JsonParseException e) {
            throw new ApiException("the API server's answer is not a LeaseList: " + e.getMessage());
        }
        if (list == null || list.getItems() == null) {
            throw new ApiException("the API server's answer is not a LeaseList: it has no items");
        }
        return list.getItems().stream().map(LeaseLock::observed).toList();
    }

    /** A failed call for a log line: its HTTP status, or what went wrong before there was one. */
    public static String describe(ApiException e) {
        return e.getCode() == 0 ? String.valueOf(e.getMessage()) : "HTTP " + e.getCode();
    }

    private static Observed observed(V1Lease lease) {
        return new Observed(lease, LeaseRecord.of(lease.getSpec()));
    }

    /** The Lease {@code call} answers, read as the watchers read objects ({@link Calls#object}). */
    private V1Lease lease(Duration limit, Call call) throws ApiException {
        return Calls.object(client, call(limit, call), V1Lease.class);
    }

    /** Sends {@code call} and waits for its answer's body up to {@code limit}, cancelling it when the limit passes. */
    private static byte[] call(Duration limit, Call call) throws ApiException {
        CompletableFuture<byte[]> answer = new CompletableFuture<>();
        call.enqueue(new Callback() {
            @Override
            public void onFailure(Call failed, IOException e) {
                answer.completeExceptionally(new ApiException(e));
            }

            @Override
            public void onResponse(Call answered, Response response) {
                try (response) {
                    answer.complete(Calls.body(response));
                } catch (ApiException e) {
                    answer.completeExceptionally(e);
                } catch (IOException e) {
                    answer.completeExceptionally(new ApiException(e));
                }
            }
        });
        try {
            return answer.get(Math.max(1, limit.toMillis()), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            call.cancel();
            throw new ApiException("no answer within " + limit.toMillis() + " ms");
        } catch (InterruptedException e) {
            call.cancel();
            Thread.currentThread().interrupt();
            throw new ApiException(e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ApiException api) {
                throw api;
            }
            throw new ApiException(e.getCause());
        }
    }
}
