package dev.watchkeeper.resource;

import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.ModelMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * The client's built-in models by group, version and kind or plural, offline (no discovery): for watchers declared
 * by name, as in {@code watchkeeper.watchers.x.resource=v1/configmaps}. The plural is Kubernetes' own guess from the
 * kind ({@link ResourceNames#guessPlural}), or the lower-case kind (as for {@code endpoints}).
 *
 * <pre>{@code
 * Optional<Class<? extends KubernetesObject>> model = BuiltInResources.byPlural("apps", "v1", "deployments");
 * boolean builtIn = BuiltInResources.isBuiltInGroup("apps");
 * }</pre>
 */
public final class BuiltInResources {

    private record Key(String group, String version, String name) {
    }

    private static volatile Index index;

    private record Index(Map<Key, Class<? extends KubernetesObject>> byKind,
            Map<Key, Class<? extends KubernetesObject>> byPlural, Set<String> groups) {
    }

    private BuiltInResources() {
    }

    /** The built-in model of {@code group/version} and {@code kind}. */
    public static Optional<Class<? extends KubernetesObject>> byKind(String group, String version, String kind) {
        return Optional.ofNullable(index().byKind().get(new Key(group, version, kind)));
    }

    /** The built-in model of {@code group/version} and {@code plural}. */
    public static Optional<Class<? extends KubernetesObject>> byPlural(String group, String version, String plural) {
        return Optional.ofNullable(index().byPlural().get(new Key(group, version, plural.toLowerCase(Locale.ROOT))));
    }

    /** Whether the client has models of {@code group} ({@code ""} is the core group), in any version. */
    public static boolean isBuiltInGroup(String group) {
        return index().groups().contains(group);
    }

    private static Index index() {
        Index current = index;
        if (current == null) {
            synchronized (BuiltInResources.class) {
                current = index;
                if (current == null) {
                    current = scan();
                    index = current;
                }
            }
        }
        return current;
    }

    @SuppressWarnings("unchecked")
    private static Index scan() {
        Map<Key, Class<? extends KubernetesObject>> byKind = new HashMap<>();
        Map<Key, Class<? extends KubernetesObject>> byPlural = new HashMap<>();
        Set<String> groups = new HashSet<>();
        ClassLoader loader = ModelMapper.class.getClassLoader();
        String pkg = "io.kubernetes.client.openapi.models";
        Resource[] classes;
        try {
            classes = new PathMatchingResourcePatternResolver(loader)
                    .getResources("classpath*:" + pkg.replace('.', '/') + "/V*.class");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the client's models", e);
        }
        for (Resource resource : classes) {
            String file = resource.getFilename();
            if (file == null || file.contains("$")) {
                continue;
            }
            Class<?> type;
            try {
                type = Class.forName(pkg + "." + file.substring(0, file.length() - ".class".length()), false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                continue;
            }
            if (!KubernetesObject.class.isAssignableFrom(type)) {
                continue;
            }
            Optional<GroupVersionKind> gvk = ModelMapper.preBuiltGetGroupVersionKindByClass(type);
            if (gvk.isEmpty()) {
                continue;
            }
            GroupVersionKind found = gvk.get();
            Class<? extends KubernetesObject> model = (Class<? extends KubernetesObject>) type;
            groups.add(found.getGroup());
            byKind.put(new Key(found.getGroup(), found.getVersion(), found.getKind()), model);
            String lower = found.getKind().toLowerCase(Locale.ROOT);
            byPlural.putIfAbsent(new Key(found.getGroup(), found.getVersion(), ResourceNames.guessPlural(found.getKind())),
                    model);
            if (lower.endsWith("s")) {
                byPlural.putIfAbsent(new Key(found.getGroup(), found.getVersion(), lower), model);
            }
        }
        return new Index(Map.copyOf(byKind), Map.copyOf(byPlural), Set.copyOf(groups));
    }
}
