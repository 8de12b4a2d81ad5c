package dev.watchkeeper.internal.webhook;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.watchkeeper.internal.json.ModelGson;
import dev.watchkeeper.webhook.Convertible;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.InvocationTargetException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers ConversionReviews for the application's multi-version resources: each object is decoded with Gson into
 * its version's class (the client's models in it as the watchers read them, so a metadata field from an API server
 * newer than the client is no failure), converted to the storage version ({@link Convertible#toHub()}) and from it
 * to the desired version ({@link Convertible#fromHub} on a new instance), and written back with the received
 * metadata (only labels and annotations are taken from the conversion, as the API server itself restores the rest).
 * An object already in the desired version is answered as received. A review's conversions run on a thread of their
 * own for at most {@link #TIME_LIMIT}.
 *
 * <p>Nothing is lost silently: a kind or version the application has no class for, a field of the received object
 * its class does not hold (Gson would drop it: the CRD and the classes disagree), or a conversion that throws fails
 * the whole review with a message naming the object, which the API server returns to its client; nothing is passed
 * on half converted.
 */
public final class ConversionHandler {

    /**
     * How long a review's conversions may run: under the 30 s the API server waits for any webhook, so that it gets
     * an answer saying why rather than a timeout.
     */
    static final Duration TIME_LIMIT = Duration.ofSeconds(25);
    private static final Logger log = LoggerFactory.getLogger(ConversionHandler.class);

    private final Map<String, ResourceVersions> resources = new LinkedHashMap<>();
    private final Gson gson;
    /** {@link #gson} reading the client's models as the watchers do: fields they do not know are skipped. */
    private final Gson reader;
    private final ExecutorService calls;
    private final Duration timeLimit;

    /** Converting on a thread of {@code calls} within {@link #TIME_LIMIT}. */
    public ConversionHandler(List<ResourceVersions> resources, Gson gson, ExecutorService calls) {
        this(resources, gson, calls, TIME_LIMIT);
    }

    /** With the time limit given, for tests. */
    ConversionHandler(List<ResourceVersions> resources, Gson gson, ExecutorService calls, Duration timeLimit) {
        resources.forEach(resource -> this.resources.put(resource.group() + "/" + resource.kind(), resource));
        this.gson = gson;
        this.reader = ModelGson.around(gson);
        this.calls = calls;
        this.timeLimit = timeLimit;
    }

    /**
     * The ConversionReview answering {@code body}: every object converted, or the reason it cannot be. Conversions
     * still running at the time limit are interrupted and the review fails saying so.
     *
     * @throws IllegalArgumentException when the body is no ConversionReview v1 with a request
     */
    public String handle(String body) throws InterruptedException {
        ConversionReview review = ConversionReview.parse(body);
        Future<String> answer = calls.submit(() -> answer(review));
        try {
            return answer.get(timeLimit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            String message = "converting " + review.objects().size() + " objects to " + review.desiredApiVersion()
                    + " did not finish within " + timeLimit.toMillis() + " ms";
            log.warn("{}; the conversions were interrupted and the review failed", message);
            return review.failed(message);
        } catch (ExecutionException e) { // not a conversion's failure (those fail the review): a defect
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            answer.cancel(true);
            throw e;
        }
    }

    private String answer(ConversionReview review) {
        List<JsonObject> converted = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (JsonObject object : review.objects()) {
            if (Thread.currentThread().isInterrupted()) { // past the time limit: the review has been answered
                return null;
            }
            try {
                converted.add(convert(object, review.desiredApiVersion()));
            } catch (ConversionFailure e) {
                failures.add(e.getMessage());
            }
        }
        return failures.isEmpty() ? review.succeeded(converted) : review.failed(String.join("; ", failures));
    }

    private JsonObject convert(JsonObject object, String desiredApiVersion) throws ConversionFailure {
        String apiVersion = ConversionReview.string(object, "apiVersion");
        if (apiVersion.equals(desiredApiVersion)) {
            return object;
        }
        String kind = ConversionReview.string(object, "kind");
        String name = name(object);
        int slash = apiVersion.indexOf('/');
        int desiredSlash = desiredApiVersion.indexOf('/');
        String group = apiVersion.substring(0, Math.max(slash, 0));
        if (slash < 0 || desiredSlash < 0 || !group.equals(desiredApiVersion.substring(0, desiredSlash))) {
            throw new ConversionFailure(kind + " " + name + " of " + apiVersion + " cannot become "
                    + desiredApiVersion + ": a conversion stays within one group");
        }
        ResourceVersions resource = resources.get(group + "/" + kind);
        if (resource == null) {
            throw new ConversionFailure("this application converts no " + kind + " of " + group + " (it converts "
                    + resources.keySet() + "): its @StorageVersion class is not used by any reconciler or webhook");
        }
        String from = apiVersion.substring(slash + 1);
        String to = desiredApiVersion.substring(desiredSlash + 1);
        Class<? extends KubernetesObject> source = known(resource, from, name);
        Class<? extends KubernetesObject> target = known(resource, to, name);
        String what = kind + " " + name + " from " + from + " to " + to;

        Object decoded;
        try {
            decoded = reader.fromJson(object, source);
        } catch (RuntimeException e) { // Gson's and the models' own checks
            throw new ConversionFailure("cannot read " + kind + " " + name + " as " + source.getSimpleName() + ": "
                    + AdmissionHandler.oneLine(e));
        }
        List<String> lost = new ArrayList<>();
        lost(withoutMetadata(object), withoutMetadata(gson.toJsonTree(decoded)), "", lost);
        if (!lost.isEmpty()) {
            throw new ConversionFailure("converting " + what + " would lose " + String.join(", ", lost) + ": "
                    + source.getSimpleName() + " has no such field; generate the CRD from the classes the application"
                    + " runs");
        }
        JsonObject result;
        try {
            Object hub = source == resource.hub() ? decoded : ((Convertible<?>) decoded).toHub();
            result = gson.toJsonTree(target == resource.hub() ? hub : fromHub(target, (KubernetesObject) hub))
                    .getAsJsonObject();
        } catch (RuntimeException | ReflectiveOperationException e) {
            Throwable error = e instanceof InvocationTargetException invocation ? invocation.getCause() : e;
            log.warn("converting {} failed", what, error);
            throw new ConversionFailure("converting " + what + " failed: " + AdmissionHandler.oneLine(error));
        }
        return written(object, result, desiredApiVersion, kind);
    }

    @SuppressWarnings("unchecked")
    private static Object fromHub(Class<? extends KubernetesObject> target, KubernetesObject hub)
            throws ReflectiveOperationException {
        var constructor = target.getDeclaredConstructor();
        constructor.setAccessible(true);
        Convertible<KubernetesObject> spoke = (Convertible<KubernetesObject>) constructor.newInstance();
        spoke.fromHub(hub);
        return spoke;
    }

    /** The converted object as answered: the received metadata with the conversion's labels and annotations. */
    private static JsonObject written(JsonObject received, JsonObject converted, String apiVersion, String kind) {
        JsonObject metadata = received.has("metadata") && received.get("metadata").isJsonObject()
                ? received.getAsJsonObject("metadata").deepCopy() : new JsonObject();
        JsonElement convertedMetadata = converted.get("metadata");
        if (convertedMetadata != null && convertedMetadata.isJsonObject()) {
            for (String member : List.of("labels", "annotations")) {
                JsonElement value = convertedMetadata.getAsJsonObject().get(member);
                metadata.remove(member);
                if (value != null && !value.isJsonNull()) {
                    metadata.add(member, value);
                }
            }
        }
        JsonObject answer = new JsonObject();
        answer.addProperty("apiVersion", apiVersion);
        answer.addProperty("kind", kind);
        answer.add("metadata", metadata);
        converted.entrySet().stream()
                .filter(member -> !List.of("apiVersion", "kind", "metadata").contains(member.getKey()))
                .forEach(member -> answer.add(member.getKey(), member.getValue()));
        return answer;
    }

    /** The object's own fields: metadata is the API server's, restored whatever the class reads of it. */
    private static JsonElement withoutMetadata(JsonElement object) {
        if (!object.isJsonObject()) {
            return object;
        }
        JsonObject copy = object.getAsJsonObject().deepCopy();
        copy.remove("metadata");
        return copy;
    }

    /** Adds to {@code lost} the paths of what {@code received} holds and {@code written} (by the class) does not. */
    private static void lost(JsonElement received, JsonElement written, String path, List<String> lost) {
        if (received.isJsonObject()) {
            if (!written.isJsonObject()) {
                lost.add(path.isEmpty() ? "the object" : path);
                return;
            }
            for (Map.Entry<String, JsonElement> member : received.getAsJsonObject().entrySet()) {
                String at = path.isEmpty() ? member.getKey() : path + "." + member.getKey();
                JsonElement counterpart = written.getAsJsonObject().get(member.getKey());
                if (member.getValue().isJsonNull()) {
                    continue;
                }
                if (counterpart == null || counterpart.isJsonNull()) {
                    lost.add(at);
                } else {
                    lost(member.getValue(), counterpart, at, lost);
                }
            }
        } else if (received.isJsonArray()) {
            if (!written.isJsonArray() || written.getAsJsonArray().size() != received.getAsJsonArray().size()) {
                lost.add(path);
                return;
            }
            for (int i = 0; i < received.getAsJsonArray().size(); i++) {
                lost(received.getAsJsonArray().get(i), written.getAsJsonArray().get(i), path + "[" + i + "]", lost);
            }
        }
    }

    private static Class<? extends KubernetesObject> known(ResourceVersions resource, String version, String name)
            throws ConversionFailure {
        Class<? extends KubernetesObject> type = resource.classOf(version);
        if (type == null) {
            throw new ConversionFailure(resource.kind() + " " + name + ": this application has no version "
                    + version + " of " + resource.crdName() + " (it has " + resource.versions().keySet()
                    + "): the CRD and the application disagree");
        }
        return type;
    }

    /** {@code namespace/name}, or {@code name} of a cluster-wide object. */
    private static String name(JsonObject object) {
        JsonElement metadata = object.get("metadata");
        if (metadata == null || !metadata.isJsonObject()) {
            return "(no metadata)";
        }
        String namespace = ConversionReview.string(metadata.getAsJsonObject(), "namespace");
        String name = ConversionReview.string(metadata.getAsJsonObject(), "name");
        return namespace.isEmpty() ? name : namespace + "/" + name;
    }

    /** Why one object cannot be converted; fails the review. */
    private static final class ConversionFailure extends Exception {

        ConversionFailure(String message) {
            super(message, null, false, false);
        }
    }
}
