package dev.watchkeeper.internal.annotation;

import dev.watchkeeper.internal.reconcile.CleanupFunction;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.internal.reconcile.ReconcileFunction;
import dev.watchkeeper.reconcile.ReconcileResult;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.Method;
import org.springframework.util.ReflectionUtils;

/**
 * A {@code @Reconciler} or {@code @Cleanup} method on its bean, checked by {@link ReconcilerParser}, callable as a
 * {@link ReconcileFunction} or a {@link CleanupFunction}.
 */
final class ReconcilerMethod implements ReconcileFunction<KubernetesObject>, CleanupFunction<KubernetesObject> {

    private final Object bean;
    private final Method method;
    private final boolean takesContext;

    /** {@code invocable}: the parsed method as callable on {@code bean} (its proxy's method, if proxied). */
    ReconcilerMethod(Object bean, Method invocable, boolean takesContext) {
        this.bean = bean;
        this.method = invocable;
        this.takesContext = takesContext;
        ReflectionUtils.makeAccessible(invocable);
    }

    @Override
    public ReconcileResult reconcile(KubernetesObject object, ReconcileContext context) throws Exception {
        return call(object, context) instanceof ReconcileResult reconcileResult ? reconcileResult
                : ReconcileResult.done();
    }

    @Override
    public void cleanup(KubernetesObject object, ReconcileContext context) throws Exception {
        call(object, context);
    }

    private Object call(KubernetesObject object, ReconcileContext context) throws Exception {
        return takesContext ? AnnotatedMethods.invoke(bean, method, object, context)
                : AnnotatedMethods.invoke(bean, method, object);
    }

    @Override
    public String toString() {
        return method.toGenericString();
    }
}
