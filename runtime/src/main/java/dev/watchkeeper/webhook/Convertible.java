package dev.watchkeeper.webhook;

import io.kubernetes.client.common.KubernetesObject;

/**
 * A version of a custom resource other than the one the API server stores (the <em>hub</em>, the class annotated
 * {@link StorageVersion @StorageVersion}): it converts itself to the hub and fills itself from one, so every version
 * converts to every other through the hub, as controller-runtime's {@code Convertible} does. The starter's
 * conversion webhook decodes an object with Gson into its version's class, calls {@link #toHub()} and, for another
 * target version, {@link #fromHub} on a new instance of that version's class (made with its no-argument
 * constructor), then answers the result. Metadata is the API server's: the webhook keeps the received one and takes
 * only labels and annotations from the converted object, so a field one version cannot hold may be kept in an
 * annotation. An exception fails the conversion with its message, which the API server returns to the client.
 *
 * <pre>{@code
 * @KubernetesResource(group = "example.com", version = "v1alpha1", plural = "widgets", kind = "Widget")
 * public class WidgetV1alpha1 implements Convertible<Widget> {
 *     public Widget toHub() { ... }
 *     public void fromHub(Widget hub) { ... }
 * }
 * }</pre>
 *
 * @param <H> the storage version's class
 */
public interface Convertible<H extends KubernetesObject> extends KubernetesObject {

    /** This object as the storage version, metadata included. */
    H toHub();

    /** Makes this (new, empty) object the given storage version's object in this version, metadata included. */
    void fromHub(H hub);
}
