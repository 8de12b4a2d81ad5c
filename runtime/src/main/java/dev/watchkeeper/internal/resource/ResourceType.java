package dev.watchkeeper.internal.resource;

import dev.watchkeeper.resource.PartialObjectMetadata;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.Objects;

/**
 * What to watch: a Java type and the API resource it maps to. Built-in models resolve their group, version and
 * kind offline; plural and scope come from API discovery on the watcher's first step unless declared here, so an
 * unreachable API server backs off instead of failing start-up.
 *
 * <pre>{@code
 * ResourceType<V1ConfigMap> configMaps = ResourceType.of(V1ConfigMap.class);
 * ResourceType<Generator> generators = ResourceType.custom(Generator.class, "samples.watchkeeper.dev", "v1",
 *         "configmapgenerators", true);
 * ResourceType<DynamicKubernetesObject> any = ResourceType.dynamic("example.com", "v1", "widgets", true);
 * ResourceType<PartialObjectMetadata> secretNames = ResourceType.of(V1Secret.class).metadataOnly();
 * }</pre>
 *
 * @param javaType   the class objects are decoded into
 * @param group      API group, empty for the core group
 * @param version    API version
 * @param kind       kind, or {@code null} when unknown (custom types declared by plural)
 * @param plural     plural resource name, or {@code null} to discover it
 * @param namespaced whether the resource is namespaced, or {@code null} to discover it
 */
public record ResourceType<T extends KubernetesObject>(Class<T> javaType, String group, String version, String kind,
        String plural, Boolean namespaced) {

    public ResourceType {
        Objects.requireNonNull(javaType, "javaType");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(version, "version");
        if (version.isBlank()) {
            throw new IllegalArgumentException("version must not be blank for " + javaType.getName());
        }
        if (kind == null && plural == null) {
            throw new IllegalArgumentException("a kind or a plural is needed for " + javaType.getName());
        }
    }

    /** A client-java model such as {@code V1ConfigMap}; version and kind come from its name, the group from its kind. */
    public static <T extends KubernetesObject> ResourceType<T> of(Class<T> model) {
        GroupVersionKind gvk = BuiltInResources.groupVersionKind(model)
                .orElseThrow(() -> new IllegalArgumentException(model.getName()
                        + " is not a built-in Kubernetes model; declare its group, version and plural"));
        // The client's offline map loses the group of most models (V1Deployment: "v1"), so fill it in.
        String group = gvk.getGroup().isEmpty() ? BuiltInGroups.groupOf(gvk.getKind()) : gvk.getGroup();
        return new ResourceType<>(model, group, gvk.getVersion(), gvk.getKind(), null, null);
    }

    /** A custom resource class with its group, version, plural and scope declared. */
    public static <T extends KubernetesObject> ResourceType<T> custom(Class<T> type, String group, String version,
            String plural, boolean namespaced) {
        return new ResourceType<>(type, group, version, null, plural, namespaced);
    }

    /** Any resource, decoded into {@link DynamicKubernetesObject}. */
    public static ResourceType<DynamicKubernetesObject> dynamic(String group, String version, String plural,
            boolean namespaced) {
        return new ResourceType<>(DynamicKubernetesObject.class, group, version, null, plural, namespaced);
    }

    /**
     * This resource, metadata only: watchers of it ask the API server for {@link PartialObjectMetadata} (content
     * types {@code as=PartialObjectMetadataList} and {@code as=PartialObjectMetadata}) and cache that, not the
     * objects' contents. A type of its own, so such a watcher never shares a full one's cache.
     */
    public ResourceType<PartialObjectMetadata> metadataOnly() {
        return new ResourceType<>(PartialObjectMetadata.class, group, version, kind, plural, namespaced);
    }

    /** Whether watchers of this type ask for and cache metadata only ({@link PartialObjectMetadata} or a subclass). */
    public boolean isMetadataOnly() {
        return PartialObjectMetadata.class.isAssignableFrom(javaType);
    }

    /** This type with its plural and scope declared, so no discovery is needed. */
    public ResourceType<T> withPlural(String plural, boolean namespaced) {
        return new ResourceType<>(javaType, group, version, kind, plural, namespaced);
    }

    /** {@code group/version} or just {@code version} for the core group. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /**
     * The declared plural, else the one the API server most likely uses for the kind
     * ({@link ResourceNames#guessPlural}); for names and messages before discovery, never for requests.
     */
    public String likelyPlural() {
        return plural != null ? plural : ResourceNames.guessPlural(kind);
    }

    /**
     * {@code <plural>.<group>}, the name of a custom resource's CRD ({@code widgets.example.com}), or just the
     * plural in the core group; the plural is {@link #likelyPlural()}.
     */
    public String qualifiedName() {
        return group.isEmpty() ? likelyPlural() : likelyPlural() + "." + group;
    }

    /** Whether plural and scope are known without discovery. */
    public boolean isResolved() {
        return plural != null && namespaced != null;
    }

    /** The resolved form; only valid when {@link #isResolved()}. */
    public ResolvedResource resolved() {
        if (!isResolved()) {
            throw new IllegalStateException(this + " needs discovery");
        }
        return new ResolvedResource(group, version, plural, namespaced);
    }

    @Override
    public String toString() {
        return apiVersion() + "/" + (plural != null ? plural : kind);
    }
}
