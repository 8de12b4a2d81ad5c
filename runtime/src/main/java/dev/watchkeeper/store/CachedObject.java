package dev.watchkeeper.store;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * One version of an object as a watcher received it. Its metadata (key, uid, resourceVersion, generation, labels,
 * owner references, deletion timestamp, finalizers) is read when it arrives; its model is decoded from the JSON it
 * keeps only when someone asks for it ({@link #decoded()}), at most once, by whichever thread asks first. Once
 * decoded, the JSON is dropped and the model kept, so an object costs its JSON until it is first read and its
 * model after. An object whose model cannot be decoded keeps the reason ({@link #problem()}) and is never served.
 *
 * <pre>{@code
 * if (event instanceof WatchEvent.Apply<V1Secret> apply && apply.cached().labels().containsKey("rotate")) {
 *     rotate(apply.object()); // decoded here, once
 * }
 * }</pre>
 *
 * @param <T> the model the JSON decodes to
 */
public final class CachedObject<T> {

    /** Decodes the JSON a {@link CachedObject} keeps. */
    public interface Decoder<T> {

        /** The model of {@code json}, or an exception if it does not decode. */
        T decode(byte[] json) throws Exception;

        /**
         * What is wrong with {@code json}, which {@link #decode} refused: a description naming the object
         * (namespace/name/resourceVersion where known), never its contents.
         */
        String problem(byte[] json, Exception failure);
    }

    /** Why the model could not be decoded, and whether that has been reported yet. */
    private static final class Undecodable {
        final String problem;
        boolean reported;

        Undecodable(String problem) {
            this.problem = problem;
        }
    }

    private final ObjectKey key;
    /** A uid in the canonical UUID form is kept as two longs (16 bytes instead of a 36-character string). */
    private final long uidHigh;
    private final long uidLow;
    /** Any other uid, or {@code null}. */
    private final String uidText;
    private final String resourceVersion;
    private final Long generation;
    private final Map<String, String> labels;
    private final List<V1OwnerReference> ownerReferences;
    private final String deletionTimestamp;
    private final List<String> finalizers;
    private final Decoder<T> decoder;
    /** The JSON ({@code byte[]}) until decoded, then the model ({@code T}) or an {@link Undecodable}. */
    private volatile Object state;

    /**
     * An object read from its JSON, to be decoded on first use. The lists and map are kept as given (pass
     * immutable ones); {@code null} labels stand for none.
     */
    public CachedObject(ObjectKey key, String uid, String resourceVersion, Long generation, Map<String, String> labels,
            List<V1OwnerReference> ownerReferences, String deletionTimestamp, List<String> finalizers, byte[] json,
            Decoder<T> decoder) {
        this.key = Objects.requireNonNull(key, "key");
        long[] uuid = canonicalUuid(uid);
        this.uidHigh = uuid == null ? 0 : uuid[0];
        this.uidLow = uuid == null ? 0 : uuid[1];
        this.uidText = uuid == null ? uid : null;
        this.resourceVersion = resourceVersion;
        this.generation = generation;
        this.labels = labels == null ? Map.of() : labels;
        this.ownerReferences = ownerReferences == null ? List.of() : ownerReferences;
        this.deletionTimestamp = deletionTimestamp;
        this.finalizers = finalizers == null ? List.of() : finalizers;
        this.decoder = Objects.requireNonNull(decoder, "decoder");
        this.state = Objects.requireNonNull(json, "json");
    }

    private CachedObject(T object, V1ObjectMeta metadata) {
        this.key = new ObjectKey(metadata.getNamespace(), metadata.getName());
        this.uidHigh = 0;
        this.uidLow = 0;
        this.uidText = metadata.getUid();
        this.resourceVersion = metadata.getResourceVersion();
        this.generation = metadata.getGeneration();
        this.labels = metadata.getLabels() == null ? Map.of() : metadata.getLabels();
        this.ownerReferences = metadata.getOwnerReferences() == null ? List.of() : metadata.getOwnerReferences();
        this.deletionTimestamp = metadata.getDeletionTimestamp() == null ? null
                : metadata.getDeletionTimestamp().toString();
        this.finalizers = metadata.getFinalizers() == null ? List.of() : metadata.getFinalizers();
        this.decoder = null;
        this.state = object;
    }

    /** An object that is already decoded (its metadata read from the model). */
    public static <T extends KubernetesObject> CachedObject<T> of(T object) {
        Objects.requireNonNull(object, "object");
        V1ObjectMeta metadata = Objects.requireNonNull(object.getMetadata(), "metadata");
        return new CachedObject<>(object, metadata);
    }

    /** The object's namespace and name. */
    public ObjectKey key() {
        return key;
    }

    /** {@code metadata.uid}, or {@code null}. */
    public String uid() {
        return uidText != null || (uidHigh == 0 && uidLow == 0) ? uidText : new UUID(uidHigh, uidLow).toString();
    }

    /** {@code uid} as two longs if it is a UUID written the canonical way (lower-case), else {@code null}. */
    private static long[] canonicalUuid(String uid) {
        if (uid == null || uid.length() != 36) {
            return null;
        }
        for (int i = 0; i < 36; i++) {
            char c = uid.charAt(i);
            boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
            if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return null;
            }
        }
        UUID parsed = UUID.fromString(uid);
        if (parsed.getMostSignificantBits() == 0 && parsed.getLeastSignificantBits() == 0) {
            return null;
        }
        return new long[] {parsed.getMostSignificantBits(), parsed.getLeastSignificantBits()};
    }

    /** {@code metadata.resourceVersion}, or {@code null}. */
    public String resourceVersion() {
        return resourceVersion;
    }

    /** {@code metadata.generation}, or {@code null} when the object has none. */
    public Long generation() {
        return generation;
    }

    /** The labels, never {@code null}. */
    public Map<String, String> labels() {
        return labels;
    }

    /** The owner references, never {@code null}. */
    public List<V1OwnerReference> ownerReferences() {
        return ownerReferences;
    }

    /** {@code metadata.deletionTimestamp} as the server wrote it, or {@code null} when not being deleted. */
    public String deletionTimestamp() {
        return deletionTimestamp;
    }

    /** The finalizers, never {@code null}. */
    public List<String> finalizers() {
        return finalizers;
    }

    /** The model, decoding it now if nobody has; {@code null} if it cannot be decoded (see {@link #problem()}). */
    @SuppressWarnings("unchecked")
    public T decoded() {
        Object current = state;
        if (current instanceof byte[]) {
            synchronized (this) {
                current = state;
                if (current instanceof byte[] json) {
                    current = decode(json);
                    state = current;
                }
            }
        }
        return current instanceof Undecodable ? null : (T) current;
    }

    private Object decode(byte[] json) {
        try {
            T object = decoder.decode(json);
            return object != null ? object : new Undecodable(decoder.problem(json, null));
        } catch (Exception failure) {
            return new Undecodable(decoder.problem(json, failure));
        }
    }

    /** Why the model cannot be decoded, once {@link #decoded()} has found out; {@code null} otherwise. */
    public String problem() {
        return state instanceof Undecodable undecodable ? undecodable.problem : null;
    }

    /**
     * Whether the caller is the first to report that this object cannot be decoded: true exactly once per
     * undecodable object, so each version is reported once whoever meets it first.
     */
    public synchronized boolean claimReport() {
        if (state instanceof Undecodable undecodable && !undecodable.reported) {
            undecodable.reported = true;
            return true;
        }
        return false;
    }

    /** The model; for an object known to decode (every object a listener is handed). */
    public T object() {
        T object = decoded();
        if (object == null) {
            throw new IllegalStateException("object " + key + " cannot be decoded: " + problem());
        }
        return object;
    }

    /** Whether the model has been decoded (or found undecodable) yet. */
    public boolean isDecoded() {
        return !(state instanceof byte[]);
    }

    @Override
    public String toString() {
        return "CachedObject[" + key + " at resourceVersion " + resourceVersion + "]";
    }
}
