package dev.watchkeeper.annotation;

import dev.watchkeeper.controller.ReconcileContext;
import dev.watchkeeper.controller.ReconcileFunction;
import dev.watchkeeper.controller.ReconcileResult;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.springframework.util.ReflectionUtils;

/**
 * A checked {@code @Reconciler} method on its bean, callable as a {@link ReconcileFunction}. The check happens once,
 * at start-up, so a wrong signature fails the context with a message naming bean, method and the problem.
 *
 * <pre>{@code
 * ReconcilerMethod method = ReconcilerMethod.of(bean, "configMaps", invocableMethod);
 * ReconcileFunction<?> function = method.function();
 * }</pre>
 */
final class ReconcilerMethod implements ReconcileFunction<KubernetesObject> {

    private final Object bean;
    private final Method method;
    private final boolean takesContext;
    private final Class<? extends KubernetesObject> primaryType;

    private ReconcilerMethod(Object bean, Method method, Class<? extends KubernetesObject> primaryType,
            boolean takesContext) {
        this.bean = bean;
        this.method = method;
        this.primaryType = primaryType;
        this.takesContext = takesContext;
        ReflectionUtils.makeAccessible(method);
    }

    /**
     * Checks {@code method}: first parameter a {@link KubernetesObject} type, optional second parameter
     * {@link ReconcileContext}, return type {@code void} or {@link ReconcileResult}.
     *
     * @throws IllegalStateException naming bean, method and what is wrong
     */
    static ReconcilerMethod of(Object bean, String beanName, Method method) {
        Class<?>[] parameters = method.getParameterTypes();
        if (parameters.length < 1 || parameters.length > 2) {
            throw invalid(beanName, method, "it must take the primary object and optionally a ReconcileContext, but"
                    + " takes " + parameters.length + " parameters");
        }
        if (!KubernetesObject.class.isAssignableFrom(parameters[0])) {
            throw invalid(beanName, method, "its first parameter must be the primary resource, a KubernetesObject"
                    + " such as V1ConfigMap, but is " + parameters[0].getName());
        }
        if (parameters.length == 2 && parameters[1] != ReconcileContext.class) {
            throw invalid(beanName, method, "its second parameter may only be a ReconcileContext, but is "
                    + parameters[1].getName());
        }
        Class<?> returns = method.getReturnType();
        if (returns != void.class && returns != Void.class && returns != ReconcileResult.class) {
            throw invalid(beanName, method, "it must return void or ReconcileResult, but returns " + returns.getName());
        }
        @SuppressWarnings("unchecked")
        Class<? extends KubernetesObject> primary = (Class<? extends KubernetesObject>) parameters[0];
        return new ReconcilerMethod(bean, method, primary, parameters.length == 2);
    }

    /** An {@link IllegalStateException} whose message says which method is wrong and how. */
    static IllegalStateException invalid(String beanName, Method method, String problem) {
        return new IllegalStateException("Invalid @Reconciler method " + describe(beanName, method) + ": " + problem);
    }

    /** {@code bean 'x' method Type.name(Param, ...)}. */
    static String describe(String beanName, Method method) {
        String parameters = Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(", "));
        return "bean '" + beanName + "' method " + method.getDeclaringClass().getSimpleName() + "." + method.getName()
                + "(" + parameters + ")";
    }

    Class<? extends KubernetesObject> primaryType() {
        return primaryType;
    }

    @Override
    public ReconcileResult reconcile(KubernetesObject object, ReconcileContext context) throws Exception {
        Object result;
        try {
            result = takesContext ? method.invoke(bean, object, context) : method.invoke(bean, object);
        } catch (InvocationTargetException e) {
            // The user's exception, not the reflective wrapper: terminal errors and messages must come through.
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
        return result instanceof ReconcileResult reconcileResult ? reconcileResult : ReconcileResult.done();
    }

    @Override
    public String toString() {
        return method.toGenericString();
    }
}
