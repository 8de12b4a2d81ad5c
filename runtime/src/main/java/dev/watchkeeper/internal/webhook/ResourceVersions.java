package dev.watchkeeper.internal.webhook;

import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.crd.CustomResourceDefinitions;
import dev.watchkeeper.webhook.Convertible;
import dev.watchkeeper.webhook.StorageVersion;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Map;
import java.util.Optional;

/**
 * A custom resource with more than one version, as the webhook converts it: its storage version's class (the hub,
 * annotated {@code @StorageVersion}) and each version's class by name, the storage version first
 * ({@link CustomResourceDefinitions#versions}, which checks that they make one resource).
 *
 * @param kind     the kind all versions share
 * @param versions every version's class by name, the storage version first (unmodifiable, in that order)
 */
public record ResourceVersions(String group, String plural, String kind,
        Map<String, Class<? extends KubernetesObject>> versions) {

    /**
     * The versions of the resource {@code type} is a version of; empty when it has only one.
     *
     * @throws IllegalArgumentException when the classes do not make one resource, saying which and why
     */
    public static Optional<ResourceVersions> of(Class<?> type) {
        if (!type.isAnnotationPresent(StorageVersion.class) && !Convertible.class.isAssignableFrom(type)) {
            return Optional.empty();
        }
        Map<String, Class<? extends KubernetesObject>> versions =
                CustomResourceDefinitions.versions(type.asSubclass(KubernetesObject.class));
        if (versions.size() < 2) {
            return Optional.empty();
        }
        Class<? extends KubernetesObject> hub = versions.values().iterator().next();
        KubernetesResource resource = hub.getAnnotation(KubernetesResource.class);
        return Optional.of(new ResourceVersions(resource.group(), resource.plural(),
                resource.kind().isEmpty() ? hub.getSimpleName() : resource.kind(), versions));
    }

    /** The storage version's class. */
    public Class<? extends KubernetesObject> hub() {
        return versions.values().iterator().next();
    }

    /** The CRD's name, {@code <plural>.<group>}. */
    public String crdName() {
        return plural + "." + group;
    }

    /** The class of {@code version}, or {@code null} when the application has none. */
    public Class<? extends KubernetesObject> classOf(String version) {
        return versions.get(version);
    }
}
