package dev.watchkeeper.internal.resource;

import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.ModelMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * The client's built-in models by group, version and kind or plural, offline (no discovery): for watchers declared
 * by name, as in {@code watchkeeper.watchers.x.resource=apps/v1/deployments}. The plural is Kubernetes' own guess
 * from the kind ({@link ResourceNames#guessPlural}), or the lower-case kind (as for {@code endpoints}).
 *
 * <p>Why the group is taken on trust: the client's offline model map only knows the group of models whose class
 * name carries it ({@code EventsV1Event}); for most ({@code V1Deployment}) it records the core group. So a model
 * matches by version and kind, and its group must be the declared one or unknown.
 *
 * <pre>{@code
 * Optional<Class<? extends KubernetesObject>> model = BuiltInResources.byPlural("apps", "v1", "deployments");
 * }</pre>
 */
public final class BuiltInResources {

    /** A model and the group the client's map records for it ({@code ""} when unknown or core). */
    public record Model(Class<? extends KubernetesObject> type, String kind) {
    }

    private record Key(String version, String name) {
    }

    private record Candidate(String group, Model model) {
    }

    private static final String MODELS = "io.kubernetes.client.openapi.models";
    private static final Pattern PLAIN_MODEL = Pattern.compile("(V[0-9]+((?:alpha|beta)[0-9]+)?)([A-Z][A-Za-z0-9]*)");

    private static volatile Map<Key, List<Candidate>> index;

    private BuiltInResources() {
    }

    /** The built-in model of {@code group/version} and {@code kind}. */
    public static Optional<Model> byKind(String group, String version, String kind) {
        return find(group, new Key(version, kind));
    }

    /** The built-in model of {@code group/version} and {@code plural}. */
    public static Optional<Model> byPlural(String group, String version, String plural) {
        return find(group, new Key(version, plural.toLowerCase(Locale.ROOT)));
    }

    /**
     * Whether {@code group} can only be a Kubernetes built-in: the core group or a group without a dot ({@code apps},
     * {@code batch}); custom resource groups must contain a dot.
     */
    public static boolean isBuiltInGroup(String group) {
        return group.isEmpty() || !group.contains(".");
    }

    /** Whether a model may stand for resources of {@code group}: built-in groups and {@code *.k8s.io}. */
    public static boolean mayBeBuiltIn(String group) {
        return isBuiltInGroup(group) || group.endsWith(".k8s.io");
    }

    private static Optional<Model> find(String group, Key key) {
        List<Candidate> candidates = index().getOrDefault(key, List.of());
        return candidates.stream().filter(c -> c.group().equals(group)).findFirst()
                .or(() -> candidates.stream().filter(c -> c.group().isEmpty()).findFirst())
                .map(Candidate::model);
    }

    private static Map<Key, List<Candidate>> index() {
        Map<Key, List<Candidate>> current = index;
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

    /**
     * What the client's model map says of a client model: its version and kind (and group only where the class name
     * carries it), or empty for any other class. Read from the class name for the common {@code V1Kind} shape; the
     * map itself is built by loading every one of the client's two thousand model classes, about a second of
     * start-up, and is consulted only for the few other names ({@code EventsV1Event}).
     */
    public static Optional<GroupVersionKind> groupVersionKind(Class<?> type) {
        if (!MODELS.equals(type.getPackageName())) {
            return Optional.empty();
        }
        Matcher plain = PLAIN_MODEL.matcher(type.getSimpleName());
        if (plain.matches()) {
            return Optional.of(new GroupVersionKind("", plain.group(1).toLowerCase(Locale.ROOT), plain.group(3)));
        }
        return ModelMapper.preBuiltGetGroupVersionKindByClass(type);
    }

    @SuppressWarnings("unchecked")
    private static Map<Key, List<Candidate>> scan() {
        Map<Key, List<Candidate>> byName = new HashMap<>();
        ClassLoader loader = ModelMapper.class.getClassLoader();
        String pkg = MODELS;
        Resource[] classes;
        try {
            classes = new PathMatchingResourcePatternResolver(loader)
                    .getResources("classpath*:" + pkg.replace('.', '/') + "/*.class");
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
            GroupVersionKind found = groupVersionKind(type).orElse(null);
            if (found == null) {
                continue;
            }
            Candidate candidate = new Candidate(found.getGroup(),
                    new Model((Class<? extends KubernetesObject>) type, found.getKind()));
            String lower = found.getKind().toLowerCase(Locale.ROOT);
            Set<String> names = new HashSet<>(List.of(found.getKind(), ResourceNames.guessPlural(found.getKind())));
            if (lower.endsWith("s")) {
                names.add(lower);
            }
            for (String name : names) {
                byName.computeIfAbsent(new Key(found.getVersion(), name), k -> new ArrayList<>()).add(candidate);
            }
        }
        Map<Key, List<Candidate>> frozen = new HashMap<>();
        byName.forEach((key, list) -> frozen.put(key, List.copyOf(list)));
        return Map.copyOf(frozen);
    }
}
