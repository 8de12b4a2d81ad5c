package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.internal.registry.WatcherSpec;
import dev.watchkeeper.internal.resource.BuiltInResources;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.internal.watch.WatchScope;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * A watcher declared by {@code watchkeeper.watchers.<name>.*}: its resource and one declaration per namespace. A
 * value that cannot be parsed, or a built-in group without such a resource, fails with a message naming the
 * property; a custom resource is only checked against the server when the watcher runs (a missing CRD backs off).
 *
 * <pre>{@code
 * PropertyWatcher appConfig = PropertyWatcher.of("app-config", properties.watchers().get("app-config"));
 * }</pre>
 *
 * @param name         the declared name
 * @param type         the resource
 * @param declarations one per namespace (one for a single namespace or all)
 * @param grouped      whether there are several namespaces, so the watchers are {@code <name>@<namespace>}
 */
record PropertyWatcher(String name, ResourceType<?> type, List<WatcherSpec<?>> declarations,
        boolean grouped) {

    /** Where watchers are declared. */
    static final String PREFIX = "watchkeeper.watchers";

    private static final Pattern VERSION = Pattern.compile("v[0-9]+((alpha|beta)[0-9]+)?");
    private static final Pattern DNS_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern KIND = Pattern.compile("[A-Z][A-Za-z0-9]*");

    /** Every watcher {@code watchkeeper.watchers} declares, in name order. */
    static List<PropertyWatcher> declaredIn(Map<String, WatcherProperties> watchers) {
        List<PropertyWatcher> declared = new ArrayList<>();
        watchers.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .filter(entry -> entry.getValue().declaresWatcher())
                .forEach(entry -> declared.add(of(entry.getKey(), entry.getValue())));
        return declared;
    }

    /**
     * Every watcher the environment's {@code watchkeeper.watchers} declares, binding that map alone: read before any
     * bean exists, where binding all of {@link WatchkeeperProperties} (its bean binds it later) would cost start-up
     * time for nothing.
     */
    static List<PropertyWatcher> declaredIn(Environment environment) {
        return declaredIn(Binder.get(environment).bind(PREFIX, Bindable.mapOf(String.class, WatcherProperties.class))
                .orElse(Map.of()));
    }

    static PropertyWatcher of(String name, WatcherProperties properties) {
        String prefix = PREFIX + "." + name;
        ResourceType<?> declared = type(prefix, properties);
        ResourceType<?> type = properties.watch() != null && properties.watch().isMetadataOnly()
                ? declared.metadataOnly() : declared;
        if (properties.namespace() != null && !properties.namespaces().isEmpty()) {
            throw WatchkeeperPropertyException.invalid(prefix + ".namespaces", properties.namespaces(),
                    "set either " + prefix + ".namespace or " + prefix + ".namespaces, not both");
        }
        List<String> namespaces = properties.namespaces().isEmpty() ? Collections.singletonList(
                properties.namespace()) : List.copyOf(properties.namespaces());
        for (String namespace : namespaces) {
            if (namespace != null && !namespace.isBlank() && !isNamespaceName(namespace)) {
                throw WatchkeeperPropertyException.invalid(properties.namespace() != null ? prefix + ".namespace" : prefix
                        + ".namespaces", namespace, "is not a namespace name");
            }
        }
        List<WatcherSpec<?>> declarations = members(name, type,
                new WatchScope(properties.namespace(), properties.labelSelector(), properties.fieldSelector()),
                List.copyOf(properties.namespaces()));
        return new PropertyWatcher(name, type, declarations, declarations.size() > 1);
    }

    /** Whether {@code value} may name a namespace (a DNS name). */
    static boolean isNamespaceName(String value) {
        return DNS_NAME.matcher(value).matches();
    }

    /** One declaration, or with several namespaces one {@code <name>@<namespace>} per namespace. */
    private static <T extends KubernetesObject> List<WatcherSpec<?>> members(String name, ResourceType<T> type,
            WatchScope scope, List<String> namespaces) {
        return List.copyOf(WatcherSpec.of(type, scope).named(name).inEach(namespaces));
    }

    /** The resource of {@code resource}, or of {@code api-version} with {@code kind} or {@code plural}. */
    static ResourceType<?> type(String prefix, WatcherProperties p) {
        String group;
        String version;
        String kind = null;
        String plural = null;
        String property;
        Object value;
        if (p.resource() != null) {
            property = prefix + ".resource";
            value = p.resource();
            if (p.apiVersion() != null || p.kind() != null || p.plural() != null) {
                throw WatchkeeperPropertyException.invalid(property, value, "set either " + property + " or " + prefix
                        + ".api-version with " + prefix + ".kind or " + prefix + ".plural, not both");
            }
            String[] parts = p.resource().trim().split("/", -1);
            if (parts.length == 2) {
                group = "";
                version = parts[0];
                plural = parts[1];
            } else if (parts.length == 3) {
                group = parts[0];
                version = parts[1];
                plural = parts[2];
            } else {
                throw WatchkeeperPropertyException.invalid(property, value, "expected <group>/<version>/<plural> (apps/v1/deployments)"
                        + " or v1/<plural> for the core group (v1/configmaps)");
            }
        } else {
            property = prefix + ".api-version";
            value = p.apiVersion();
            if (p.apiVersion() == null) {
                throw WatchkeeperPropertyException.invalid(property, null, "is needed with " + prefix + "." + (p.kind() != null
                        ? "kind" : "plural") + " (or set " + prefix + ".resource)");
            }
            if ((p.kind() == null) == (p.plural() == null)) {
                throw WatchkeeperPropertyException.invalid(property, value, "needs exactly one of " + prefix + ".kind and " + prefix
                        + ".plural");
            }
            String[] parts = p.apiVersion().trim().split("/", -1);
            if (parts.length > 2) {
                throw WatchkeeperPropertyException.invalid(property, value, "expected <group>/<version> or v1");
            }
            group = parts.length == 2 ? parts[0] : "";
            version = parts[parts.length - 1];
            kind = p.kind();
            plural = p.plural();
            if (kind != null && !KIND.matcher(kind).matches()) {
                throw WatchkeeperPropertyException.invalid(prefix + ".kind", kind, "expected a kind such as ConfigMap");
            }
            property = prefix + (plural != null ? ".plural" : ".kind");
            value = plural != null ? plural : kind;
        }
        String versionProperty = p.resource() != null ? property : prefix + ".api-version";
        Object versionValue = p.resource() != null ? value : p.apiVersion();
        if (!group.isEmpty() && !DNS_NAME.matcher(group).matches()) {
            throw WatchkeeperPropertyException.invalid(versionProperty, versionValue, "'" + group + "' is not an API group");
        }
        if (!VERSION.matcher(version).matches()) {
            throw WatchkeeperPropertyException.invalid(versionProperty, versionValue, "'" + version + "' is not an API version (v1, v1beta1, ...)");
        }
        if (plural != null && !DNS_NAME.matcher(plural).matches()) {
            throw WatchkeeperPropertyException.invalid(property, value, "'" + plural + "' is not a plural resource name");
        }
        Optional<BuiltInResources.Model> model = !BuiltInResources.mayBeBuiltIn(group) ? Optional.empty()
                : kind != null ? BuiltInResources.byKind(group, version, kind)
                : BuiltInResources.byPlural(group, version, plural);
        if (model.isPresent()) {
            return builtIn(model.get().type(), group, version, model.get().kind());
        }
        if (BuiltInResources.isBuiltInGroup(group)) {
            throw WatchkeeperPropertyException.invalid(property, value, "the client knows no " + (kind != null ? "kind " + kind
                    : "resource " + plural) + " in " + (group.isEmpty() ? version : group + "/" + version)
                    + "; check the spelling and version");
        }
        return new ResourceType<>(DynamicKubernetesObject.class, group, version, kind, plural, p.namespaced());
    }

    /**
     * The model with the declared group (the client's offline map may not know it) and no plural: the plural and
     * scope come from discovery, and the type equals {@code ResourceType.of(model)} for the core group, so such a
     * watcher is shared with one declared in code or by {@code @Reconciler}.
     */
    private static <T extends KubernetesObject> ResourceType<T> builtIn(Class<T> model, String group, String version,
            String kind) {
        return new ResourceType<>(model, group, version, kind, null, null);
    }
}
