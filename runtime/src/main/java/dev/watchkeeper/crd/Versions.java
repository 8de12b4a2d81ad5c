package dev.watchkeeper.crd;

import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.webhook.Convertible;
import dev.watchkeeper.webhook.StorageVersion;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The classes of a resource's versions, found from any of them: a class annotated
 * {@link StorageVersion @StorageVersion} is the hub, a {@link Convertible} leads to its hub, any other class is its
 * resource's only version. The versions must agree on group, plural, kind and scope, each must convert to this hub
 * and be constructible empty; what does not is named.
 */
final class Versions {

    private Versions() {
    }

    /** Every version's class by name, the storage version first. */
    static Map<String, Class<? extends KubernetesObject>> of(Class<? extends KubernetesObject> type) {
        Class<? extends KubernetesObject> hub = hubOf(type);
        KubernetesResource resource = annotation(hub);
        Map<String, Class<? extends KubernetesObject>> versions = new LinkedHashMap<>();
        versions.put(resource.version(), hub);
        StorageVersion storage = hub.getAnnotation(StorageVersion.class);
        if (storage == null) {
            return Collections.unmodifiableMap(versions);
        }
        String kind = kind(hub, resource);
        for (Class<? extends Convertible<?>> other : storage.otherVersions()) {
            KubernetesResource its = annotation(other);
            String where = other.getName() + " (in @StorageVersion of " + hub.getName() + ")";
            if (!its.group().equals(resource.group()) || !its.plural().equals(resource.plural())
                    || !kind(other, its).equals(kind) || its.namespaced() != resource.namespaced()) {
                throw new IllegalArgumentException(where + " must have the group, plural, kind and scope of "
                        + hub.getSimpleName() + " (" + resource.group() + ", " + resource.plural() + ", " + kind
                        + (resource.namespaced() ? ", namespaced" : ", cluster-wide") + "); set kind = \"" + kind
                        + "\" when the class is named otherwise");
            }
            if (hubArgument(other) != hub) {
                throw new IllegalArgumentException(where + " must implement Convertible<" + hub.getSimpleName()
                        + ">");
            }
            try {
                other.getDeclaredConstructor();
            } catch (NoSuchMethodException e) {
                throw new IllegalArgumentException(where + " needs a no-argument constructor: fromHub fills a new"
                        + " instance");
            }
            if (versions.put(its.version(), other) != null) {
                throw new IllegalArgumentException(where + " repeats the version " + its.version());
            }
        }
        return Collections.unmodifiableMap(versions);
    }

    private static Class<? extends KubernetesObject> hubOf(Class<? extends KubernetesObject> type) {
        if (!Convertible.class.isAssignableFrom(type)) {
            return type;
        }
        Class<? extends KubernetesObject> hub = hubArgument(type);
        if (hub == null || !hub.isAnnotationPresent(StorageVersion.class)
                || !List.of(hub.getAnnotation(StorageVersion.class).otherVersions()).contains(type)) {
            throw new IllegalArgumentException(type.getName() + " is a Convertible, so its hub "
                    + (hub == null ? "(its type argument)" : hub.getName())
                    + " must be annotated @StorageVersion naming it in otherVersions");
        }
        return hub;
    }

    /** {@code H} of the {@code Convertible<H>} the class or a superclass implements; {@code null} if none. */
    private static Class<? extends KubernetesObject> hubArgument(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Type implemented : c.getGenericInterfaces()) {
                if (implemented instanceof ParameterizedType parameterized
                        && parameterized.getRawType() == Convertible.class
                        && parameterized.getActualTypeArguments()[0] instanceof Class<?> hub) {
                    return hub.asSubclass(KubernetesObject.class);
                }
            }
        }
        return null;
    }

    private static KubernetesResource annotation(Class<?> type) {
        KubernetesResource resource = type.getAnnotation(KubernetesResource.class);
        if (resource == null || resource.group().isEmpty()) {
            throw new IllegalArgumentException(type.getName() + " needs @KubernetesResource with a group for a CRD");
        }
        return resource;
    }

    static String kind(Class<?> type, KubernetesResource resource) {
        return resource.kind().isEmpty() ? type.getSimpleName() : resource.kind();
    }
}
