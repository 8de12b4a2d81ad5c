package dev.watchkeeper.internal.resource;

import dev.watchkeeper.annotation.KubernetesResource;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

/**
 * Resolves a Java class to its {@link ResourceType}: explicit group/version/plural first, then
 * {@link KubernetesResource} on the class, then the client's built-in model map.
 */
public final class ResourceTypes {

    private ResourceTypes() {
    }

    /**
     * @param group, version, plural, namespaced what the annotation declares (empty strings = not declared)
     * @throws IllegalArgumentException saying what to declare when the class cannot be resolved
     */
    public static <T extends KubernetesObject> ResourceType<T> resolve(Class<T> type, String group, String version,
            String plural, boolean namespaced) {
        if (!version.isEmpty() || !group.isEmpty()) {
            if (version.isEmpty() || plural.isEmpty()) {
                throw new IllegalArgumentException("a custom resource needs group, version and plural; " + type.getName()
                        + " declares group '" + group + "', version '" + version + "', plural '" + plural + "'");
            }
            return ResourceType.custom(type, group, version, plural, namespaced);
        }
        ResourceType<T> resolved = resolve(type);
        return plural.isEmpty() ? resolved : resolved.withPlural(plural, namespaced);
    }

    /** A class alone: {@link KubernetesResource} or a built-in model. */
    public static <T extends KubernetesObject> ResourceType<T> resolve(Class<T> type) {
        KubernetesResource declared = type.getAnnotation(KubernetesResource.class);
        if (declared != null) {
            return ResourceType.custom(type, declared.group(), declared.version(), declared.plural(),
                    declared.namespaced());
        }
        if (DynamicKubernetesObject.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(type.getSimpleName()
                    + " can be any resource: declare group, version and plural on @Reconciler");
        }
        try {
            return ResourceType.of(type);
        } catch (IllegalArgumentException notBuiltIn) {
            throw new IllegalArgumentException(type.getName() + " is not a built-in Kubernetes model: declare group,"
                    + " version and plural on @Reconciler, or annotate the class with @KubernetesResource");
        }
    }
}
