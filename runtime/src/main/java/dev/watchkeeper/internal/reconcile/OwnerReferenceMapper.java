package dev.watchkeeper.internal.reconcile;

import dev.watchkeeper.reconcile.SecondaryMapper;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.store.Store;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Maps an owned object to its controller owner: the ownerReference with {@code controller: true} whose group and
 * kind are the primary's. Like controller-runtime's {@code EnqueueRequestForOwner(OnlyControllerOwner)}, only the
 * group of the apiVersion is compared: an owner written through another version of the API is the same object.
 *
 * <pre>{@code
 * SecondaryMapper<V1ConfigMap> toGenerator = new OwnerReferenceMapper<>(generatorType, generatorStore);
 * }</pre>
 *
 * Owner and owned share the namespace (Kubernetes forbids cross-namespace owners); a cluster-scoped primary's key
 * has no namespace. When the primary type's kind is unknown (a custom class declared by plural), a reference of
 * the right group matches if the primary store holds an object of that name whose kind, if set, agrees.
 */
public final class OwnerReferenceMapper<S extends KubernetesObject> implements SecondaryMapper<S> {

    private final ResourceType<?> primary;
    private final Store<? extends KubernetesObject> primaryStore;

    public OwnerReferenceMapper(ResourceType<?> primary, Store<? extends KubernetesObject> primaryStore) {
        this.primary = Objects.requireNonNull(primary, "primary");
        this.primaryStore = Objects.requireNonNull(primaryStore, "primaryStore");
    }

    @Override
    public Collection<ObjectKey> map(S object) {
        V1ObjectMeta metadata = object.getMetadata();
        if (metadata == null || metadata.getOwnerReferences() == null) {
            return List.of();
        }
        for (V1OwnerReference reference : metadata.getOwnerReferences()) {
            if (!Boolean.TRUE.equals(reference.getController()) || reference.getName() == null
                    || !primary.group().equals(groupOf(reference.getApiVersion()))) {
                continue;
            }
            String namespace = Boolean.FALSE.equals(primary.namespaced()) ? null : metadata.getNamespace();
            ObjectKey key = new ObjectKey(namespace, reference.getName());
            if (kindMatches(reference.getKind(), key)) {
                // At most one controller reference exists per object.
                return List.of(key);
            }
        }
        return List.of();
    }

    private boolean kindMatches(String kind, ObjectKey key) {
        if (primary.kind() != null) {
            return primary.kind().equals(kind);
        }
        return primaryStore.get(key).map(owner -> owner.getKind() == null || owner.getKind().equals(kind))
                .orElse(false);
    }

    private static String groupOf(String apiVersion) {
        if (apiVersion == null) {
            return null;
        }
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }
}
