package dev.watchkeeper.internal.annotation;

import java.lang.annotation.Annotation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * What the annotation post-processors and the early watcher registrar share: finding annotated methods, resolving
 * placeholders in attributes, naming a method in an error, and calling a method so that the user's own exception
 * comes through.
 */
final class AnnotatedMethods {

    private static final String SPRING_PACKAGE = "org.springframework.";

    private AnnotatedMethods() {
    }

    /**
     * The methods of {@code type} (and its supertypes) carrying {@code annotation}, merged with meta-annotations;
     * none on Spring's own classes (as Spring's {@code EventListenerMethodProcessor} skips its container classes):
     * they cannot carry Watchkeeper's annotations, and walking their methods at start-up loads every type their
     * signatures name.
     */
    static <A extends Annotation> Map<Method, A> find(Class<?> type, Class<A> annotation) {
        if (type.getName().startsWith(SPRING_PACKAGE) || !AnnotationUtils.isCandidateClass(type, annotation)) {
            return Map.of();
        }
        return MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<A>) method ->
                AnnotatedElementUtils.findMergedAnnotation(method, annotation));
    }

    /**
     * {@code value} with its {@code ${…}} placeholders resolved by {@code resolver}.
     *
     * @throws IllegalArgumentException when a placeholder remains unresolved
     */
    static String resolve(UnaryOperator<String> resolver, String value) {
        if (value == null || value.isEmpty()) {
            return "";
        }
        String resolved = resolver.apply(value);
        if (resolved == null || resolved.contains("${")) {
            throw new IllegalArgumentException("cannot resolve the placeholder in '" + value + "'");
        }
        return resolved;
    }

    /** {@code bean 'x' method Type.name(Param, ...)}. */
    static String describe(String beanName, Method method) {
        return "bean '" + beanName + "' method " + signature(method);
    }

    /** {@code Type.name(Param, ...)}. */
    private static String signature(Method method) {
        String parameters = Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(", "));
        return method.getDeclaringClass().getSimpleName() + "." + method.getName() + "(" + parameters + ")";
    }

    /** An {@link InvalidAnnotatedMethodException} saying which annotated method is wrong and how. */
    static InvalidAnnotatedMethodException invalid(Class<? extends Annotation> annotation, String beanName,
            Method method, String problem) {
        return new InvalidAnnotatedMethodException(annotation, beanName, signature(method), problem);
    }

    /**
     * Calls {@code method} on {@code bean}; an exception the method throws comes out as itself, not wrapped in
     * {@link InvocationTargetException}, so terminal errors and messages reach the caller.
     */
    static Object invoke(Object bean, Method method, Object... arguments) throws Exception {
        try {
            return method.invoke(bean, arguments);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
