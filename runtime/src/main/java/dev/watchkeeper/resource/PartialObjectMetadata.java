package dev.watchkeeper.resource;

import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Objects;

/**
 * An object of any resource with nothing but its metadata ({@code meta.k8s.io/v1 PartialObjectMetadata}), as a
 * metadata-only watcher asks the API server for and caches it: the way to watch the Secrets or Pods of a large
 * cluster without holding their contents. client-java has no such model. A watcher caches this type when its
 * {@code ResourceType} is {@code ResourceType#metadataOnly()}; a subclass annotated {@code @KubernetesResource} names
 * its resource for {@code @Reconciler}, {@code owns} and {@code watches}.
 *
 * <pre>{@code
 * Watcher<PartialObjectMetadata> secrets = HttpWatchApi.watcher(client,
 *         ResourceType.of(V1Secret.class).metadataOnly()).build();
 *
 * @KubernetesResource(group = "", version = "v1", plural = "secrets")
 * public class SecretMetadata extends PartialObjectMetadata { }
 * }</pre>
 */
public class PartialObjectMetadata implements KubernetesObject {

    /** The apiVersion the API server gives these objects. */
    public static final String API_VERSION = "meta.k8s.io/v1";

    /** The kind the API server gives these objects. */
    public static final String KIND = "PartialObjectMetadata";

    @SerializedName("apiVersion")
    private String apiVersion;

    @SerializedName("kind")
    private String kind;

    @SerializedName("metadata")
    private V1ObjectMeta metadata;

    /** An empty one, as a decoder makes it before filling it in. */
    public PartialObjectMetadata() {
    }

    /** The metadata of an object, as the API server would show it. */
    public PartialObjectMetadata(V1ObjectMeta metadata) {
        this.apiVersion = API_VERSION;
        this.kind = KIND;
        this.metadata = metadata;
    }

    @Override
    public V1ObjectMeta getMetadata() {
        return metadata;
    }

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }

    @Override
    public boolean equals(Object other) {
        return other != null && other.getClass() == getClass()
                && Objects.equals(apiVersion, ((PartialObjectMetadata) other).apiVersion)
                && Objects.equals(kind, ((PartialObjectMetadata) other).kind)
                && Objects.equals(metadata, ((PartialObjectMetadata) other).metadata);
    }

    @Override
    public int hashCode() {
        return Objects.hash(apiVersion, kind, metadata);
    }

    @Override
    public String toString() {
        return kind + "(" + (metadata == null ? null : metadata.getNamespace() + "/" + metadata.getName()) + ")";
    }
}
