package dev.watchkeeper.crd;

import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.PrinterColumn;
import dev.watchkeeper.annotation.ScaleSubresource;
import dev.watchkeeper.webhook.Convertible;
import dev.watchkeeper.webhook.StorageVersion;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.ApiextensionsV1ServiceReference;
import io.kubernetes.client.openapi.models.ApiextensionsV1WebhookClientConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code apiextensions.k8s.io/v1} CustomResourceDefinition of a custom resource class annotated
 * {@link KubernetesResource @KubernetesResource}: one served and stored version (or, with
 * {@link StorageVersion @StorageVersion}, every version of the resource and a conversion webhook) whose structural
 * schema is the class as Gson writes it (see {@code docs/crds.md} for the mapping), a status subresource when the
 * class has a {@code status} field, and what {@link ScaleSubresource @ScaleSubresource},
 * {@link PrinterColumn @PrinterColumn}, {@code @ValidationRule}, {@code @ListType} and Jakarta Bean Validation
 * constraints declare.
 *
 * <pre>{@code
 * String yaml = CustomResourceDefinitions.yaml(ConfigMapGenerator.class);
 * }</pre>
 *
 * As a build step, {@link #main} writes one file per class.
 */
public final class CustomResourceDefinitions {

    /** Where the starter's webhook server answers the ConversionReviews of every multi-version resource. */
    public static final String CONVERSION_PATH = "/convert";

    private static final String STATUS = "status";
    private static final String SERVICE_OPTION = "--conversion-service=";
    private static final String URL_OPTION = "--conversion-url=";

    private CustomResourceDefinitions() {
    }

    /**
     * The CRD as plain maps, lists and scalars, ready for Gson or YAML (never with the empty collections client-java's
     * {@code V1JSONSchemaProps} writes, which the API server refuses).
     *
     * @throws IllegalArgumentException when the class is not annotated, its group is empty, a field has no schema
     *                                  (a type variable, an interface, a recursive type), or the resource has more
     *                                  than one version (it needs the conversion webhook's client config)
     */
    public static Map<String, Object> definition(Class<? extends KubernetesObject> type) {
        return definition(type, null);
    }

    /**
     * The CRD of the resource {@code type} is a version of. With {@link StorageVersion @StorageVersion} on its
     * storage version's class (or {@code type} a {@link Convertible} of it), it serves every version, each with the
     * schema, subresources and columns of its own class, stores that one, and converts with a webhook
     * ({@code conversionReviewVersions: [v1]}) that {@code conversion} says how to call; a single-version resource
     * ignores {@code conversion}. The names come from the storage version.
     *
     * @param conversion the conversion webhook's service or URL, and its CA bundle if known (the starter fills it
     *                   in when it registers); {@code null} when the resource has one version
     * @throws IllegalArgumentException as {@link #definition(Class)}, when the versions' classes do not make one
     *                                  resource, or when a resource with several versions has no {@code conversion}
     */
    public static Map<String, Object> definition(Class<? extends KubernetesObject> type,
            ApiextensionsV1WebhookClientConfig conversion) {
        Map<String, Class<? extends KubernetesObject>> classes = versions(type);
        Class<? extends KubernetesObject> storage = classes.values().iterator().next();
        KubernetesResource resource = storage.getAnnotation(KubernetesResource.class);
        String kind = Versions.kind(storage, resource);

        Map<String, Object> names = new LinkedHashMap<>();
        names.put("plural", resource.plural());
        names.put("singular", kind.toLowerCase(Locale.ROOT));
        names.put("kind", kind);
        names.put("listKind", kind + "List");
        if (resource.shortNames().length > 0) {
            names.put("shortNames", List.of(resource.shortNames()));
        }

        List<Map<String, Object>> served = new ArrayList<>();
        classes.forEach((name, versionClass) -> served.add(version(name, versionClass, versionClass == storage)));

        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("group", resource.group());
        spec.put("scope", resource.namespaced() ? "Namespaced" : "Cluster");
        spec.put("names", names);
        spec.put("versions", served);
        if (classes.size() > 1) {
            if (conversion == null) {
                throw new IllegalArgumentException(storage.getName() + " has the versions " + classes.keySet()
                        + ": its CRD needs the conversion webhook's service or URL (definition(type, conversion),"
                        + " or --conversion-service=<namespace>/<name> for main)");
            }
            spec.put("conversion", conversion(conversion));
        }

        Map<String, Object> crd = new LinkedHashMap<>();
        crd.put("apiVersion", "apiextensions.k8s.io/v1");
        crd.put("kind", "CustomResourceDefinition");
        crd.put("metadata", Map.of("name", resource.plural() + "." + resource.group()));
        crd.put("spec", spec);
        return crd;
    }

    /**
     * The classes of every version of the resource {@code type} is a version of, by version name, the storage
     * version first: the class alone, unless it or its hub is annotated {@link StorageVersion @StorageVersion}.
     *
     * @throws IllegalArgumentException when a class is not annotated or has no group, or the versions' classes do
     *                                  not make one resource (group, plural, kind, scope, {@link Convertible} of
     *                                  the hub, a no-argument constructor), saying which and why
     */
    public static Map<String, Class<? extends KubernetesObject>> versions(Class<? extends KubernetesObject> type) {
        return Versions.of(type);
    }

    /** The CRD as YAML, after a comment naming the class it was generated from. */
    public static String yaml(Class<? extends KubernetesObject> type) {
        return yaml(type, null);
    }

    /** The CRD with its conversion as YAML, after a comment naming the class it was generated from. */
    public static String yaml(Class<? extends KubernetesObject> type, ApiextensionsV1WebhookClientConfig conversion) {
        return "# Generated by Watchkeeper from " + type.getName() + ": change the class, not this file.\n"
                + YamlWriter.write(definition(type, conversion));
    }

    /**
     * Writes {@code <plural>.<group>.yaml} into the directory {@code args[0]} for each class named after it, e.g. in
     * {@code process-classes} with {@code exec-maven-plugin}'s {@code java} goal. Before the classes, for resources
     * with several versions, {@code --conversion-service=<namespace>/<name>} (port 443) or
     * {@code --conversion-url=https://host:port} says where the API server calls the conversion webhook (at
     * {@code /convert}).
     */
    public static void main(String[] args) throws IOException, ClassNotFoundException {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: CustomResourceDefinitions <output directory>"
                    + " [--conversion-service=<namespace>/<name> | --conversion-url=https://host:port] <class>...");
        }
        Path directory = Files.createDirectories(Path.of(args[0]));
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        ApiextensionsV1WebhookClientConfig conversion = null;
        for (int i = 1; i < args.length; i++) {
            if (args[i].startsWith(SERVICE_OPTION)) {
                String[] service = args[i].substring(SERVICE_OPTION.length()).split("/", -1);
                if (service.length != 2 || service[0].isEmpty() || service[1].isEmpty()) {
                    throw new IllegalArgumentException(args[i] + ": expected " + SERVICE_OPTION + "<namespace>/<name>");
                }
                conversion = new ApiextensionsV1WebhookClientConfig().service(new ApiextensionsV1ServiceReference()
                        .namespace(service[0]).name(service[1]).port(443).path(CONVERSION_PATH));
                continue;
            }
            if (args[i].startsWith(URL_OPTION)) {
                String base = args[i].substring(URL_OPTION.length()).replaceAll("/+$", "");
                if (!base.startsWith("https://")) {
                    throw new IllegalArgumentException(args[i] + ": the URL must start with https://");
                }
                conversion = new ApiextensionsV1WebhookClientConfig().url(base + CONVERSION_PATH);
                continue;
            }
            Class<? extends KubernetesObject> type = Class.forName(args[i], false, loader)
                    .asSubclass(KubernetesObject.class);
            String yaml = yaml(type, conversion);
            KubernetesResource resource = type.getAnnotation(KubernetesResource.class);
            Files.writeString(directory.resolve(resource.plural() + "." + resource.group() + ".yaml"), yaml);
        }
    }

    private static Map<String, Object> version(String name, Class<?> type, boolean storage) {
        Map<String, Object> schema = new SchemaGenerator().root(type);
        Map<String, Object> version = new LinkedHashMap<>();
        version.put("name", name);
        version.put("served", true);
        version.put("storage", storage);
        Map<String, Object> subresources = subresources(type, schema);
        if (!subresources.isEmpty()) {
            version.put("subresources", subresources);
        }
        List<Map<String, Object>> columns = columns(type);
        if (!columns.isEmpty()) {
            version.put("additionalPrinterColumns", columns);
        }
        version.put("schema", Map.of("openAPIV3Schema", schema));
        return version;
    }

    /** {@code spec.conversion}: the webhook, called with ConversionReview v1 only. */
    private static Map<String, Object> conversion(ApiextensionsV1WebhookClientConfig config) {
        Map<String, Object> clientConfig = new LinkedHashMap<>();
        if (config.getUrl() != null) {
            clientConfig.put("url", config.getUrl());
        }
        ApiextensionsV1ServiceReference service = config.getService();
        if (service != null) {
            Map<String, Object> reference = new LinkedHashMap<>();
            reference.put("namespace", service.getNamespace());
            reference.put("name", service.getName());
            if (service.getPath() != null) {
                reference.put("path", service.getPath());
            }
            if (service.getPort() != null) {
                reference.put("port", service.getPort());
            }
            clientConfig.put("service", reference);
        }
        if (config.getCaBundle() != null) {
            clientConfig.put("caBundle", Base64.getEncoder().encodeToString(config.getCaBundle()));
        }
        Map<String, Object> webhook = new LinkedHashMap<>();
        webhook.put("conversionReviewVersions", List.of("v1"));
        webhook.put("clientConfig", clientConfig);
        Map<String, Object> conversion = new LinkedHashMap<>();
        conversion.put("strategy", "Webhook");
        conversion.put("webhook", webhook);
        return conversion;
    }

    private static Map<String, Object> subresources(Class<?> type, Map<String, Object> schema) {
        Map<String, Object> subresources = new LinkedHashMap<>();
        if (schema.get("properties") instanceof Map<?, ?> properties && properties.containsKey(STATUS)) {
            subresources.put(STATUS, Map.of());
        }
        ScaleSubresource scale = type.getAnnotation(ScaleSubresource.class);
        if (scale != null) {
            Map<String, Object> paths = new LinkedHashMap<>();
            paths.put("specReplicasPath", scale.specReplicasPath());
            paths.put("statusReplicasPath", scale.statusReplicasPath());
            if (!scale.labelSelectorPath().isEmpty()) {
                paths.put("labelSelectorPath", scale.labelSelectorPath());
            }
            subresources.put("scale", paths);
        }
        return subresources;
    }

    private static List<Map<String, Object>> columns(Class<?> type) {
        List<Map<String, Object>> columns = new ArrayList<>();
        for (PrinterColumn column : type.getAnnotationsByType(PrinterColumn.class)) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", column.name());
            entry.put("type", column.type());
            entry.put("jsonPath", column.jsonPath());
            if (!column.description().isEmpty()) {
                entry.put("description", column.description());
            }
            if (column.priority() != 0) {
                entry.put("priority", column.priority());
            }
            columns.add(entry);
        }
        return columns;
    }
}
