package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.internal.settings.InvalidSettingException;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A reconciler's finalizer and the cleanup it guards (docs/semantics.md §10), as kube-rs's {@code finalizer()}: the
 * finalizer is added to each object before its first reconcile, so Kubernetes keeps a deleted object (with
 * {@code metadata.deletionTimestamp} set) until the cleanup has succeeded and removed it.
 *
 * <pre>{@code
 * Reconciler.builder("buckets", buckets, reconciler)
 *         .finalizer(new Finalizer<>("example.com/bucket-cleanup", (bucket, context) -> storage.delete(bucket)))
 *         .apiClient(client)
 *         .build();
 * }</pre>
 *
 * @param name    the finalizer, a qualified name such as {@code example.com/cleanup}
 * @param cleanup what runs once an object carrying it is being deleted
 */
public record Finalizer<T extends KubernetesObject>(String name, CleanupFunction<T> cleanup) {

    /** Kubernetes' qualified name: an optional DNS subdomain and {@code /}, then up to 63 name characters. */
    private static final Pattern QUALIFIED_NAME = Pattern.compile(
            "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

    public Finalizer {
        if (name == null || !QUALIFIED_NAME.matcher(name).matches()) {
            throw new InvalidSettingException("finalizer", name,
                    "must be a qualified name such as example.com/cleanup");
        }
        Objects.requireNonNull(cleanup, "cleanup");
    }

    /** Whether {@code object} carries this finalizer. */
    public boolean isOn(KubernetesObject object) {
        V1ObjectMeta metadata = object.getMetadata();
        List<String> finalizers = metadata == null ? null : metadata.getFinalizers();
        return finalizers != null && finalizers.contains(name);
    }

    /** Whether {@code object} is being deleted ({@code metadata.deletionTimestamp} is set). */
    public static boolean isDeleting(KubernetesObject object) {
        return object.getMetadata() != null && object.getMetadata().getDeletionTimestamp() != null;
    }
}
