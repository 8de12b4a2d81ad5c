package dev.watchkeeper.internal.annotation;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.springframework.util.ClassUtils;

/**
 * Each bean's {@code @Reconciler} methods, parsed once by {@link ReconcilerParser}: the early watcher registrar parses
 * every bean's class before any bean exists and this keeps the result, which the post-processor takes when it meets
 * the bean. A bean the registrar did not see (registered later, or whose instance has another class than its
 * definition said) is parsed when the post-processor meets it.
 *
 * <pre>{@code
 * ParsedReconcilers reconcilers = new ParsedReconcilers(environment::resolvePlaceholders, NamespaceOverrides.none());
 * reconcilers.parse("mirrorConfig", MirrorConfig.class);  // the registrar, from the bean definition
 * }</pre>
 */
public final class ParsedReconcilers {

    /** What {@link #parse} found for a bean, and in which class. */
    private record Kept(Class<?> type, List<ParsedReconciler> reconcilers) {
    }

    private final UnaryOperator<String> resolver;
    private final NamespaceOverrides overrides;
    private final Map<String, Kept> kept = new ConcurrentHashMap<>();

    /**
     * @param resolver  resolves {@code ${…}} placeholders in attributes
     * @param overrides decides each reconciler's namespaces
     */
    public ParsedReconcilers(UnaryOperator<String> resolver, NamespaceOverrides overrides) {
        this.resolver = Objects.requireNonNull(resolver, "resolver");
        this.overrides = Objects.requireNonNull(overrides, "overrides");
    }

    /**
     * The methods of {@code type}, the class of the bean {@code beanName}, parsed and kept for {@link #take}; beans
     * without any are kept too, so the post-processor does not look at their methods again.
     *
     * @throws IllegalStateException naming bean, method and what is wrong
     */
    public List<ParsedReconciler> parse(String beanName, Class<?> type) {
        Class<?> userClass = ClassUtils.getUserClass(type);
        List<ParsedReconciler> reconcilers = ReconcilerParser.parse(userClass, beanName, resolver, overrides);
        kept.put(beanName, new Kept(userClass, reconcilers));
        return reconcilers;
    }

    /**
     * The methods {@link #parse} kept for {@code beanName} if it parsed the same class, else those of {@code type}
     * parsed now. Taking forgets them: another instance of the bean (a prototype) is parsed again.
     */
    List<ParsedReconciler> take(String beanName, Class<?> type) {
        Kept early = kept.remove(beanName);
        if (early != null && early.type() == ClassUtils.getUserClass(type)) {
            return early.reconcilers();
        }
        return ReconcilerParser.parse(type, beanName, resolver, overrides);
    }
}
