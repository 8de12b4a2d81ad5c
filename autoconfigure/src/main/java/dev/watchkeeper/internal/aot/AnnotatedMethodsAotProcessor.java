package dev.watchkeeper.internal.aot;

import dev.watchkeeper.registry.WatcherDeclaration;
import dev.watchkeeper.annotation.Cleanup;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.annotation.WatchListener;
import dev.watchkeeper.webhook.StorageVersion;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * At build time, finds the {@code @Reconciler}, {@code @Cleanup} and {@code @WatchListener} methods of the bean
 * classes, which Watchkeeper calls reflectively, and the Kubernetes types they watch (their parameters, and the
 * types {@code owns} and {@code watches} name) or a {@code WatcherDeclaration} bean declares, which Gson builds
 * reflectively: the hints a native image needs. Watchers declared in properties are known only when the application
 * runs; a native image needs their models named another way (a {@code WatcherDeclaration} bean, or
 * {@code @RegisterReflectionForBinding}).
 */
public final class AnnotatedMethodsAotProcessor implements BeanFactoryInitializationAotProcessor {

    @Override
    public BeanFactoryInitializationAotContribution processAheadOfTime(ConfigurableListableBeanFactory beanFactory) {
        Set<Method> methods = new LinkedHashSet<>();
        Set<Class<?>> models = new LinkedHashSet<>();
        for (String beanName : beanFactory.getBeanDefinitionNames()) {
            Class<?> type = beanType(beanFactory, beanName);
            if (type == null) {
                continue;
            }
            if (WatcherDeclaration.class.isAssignableFrom(type)) {
                addModel(models, beanFactory.getMergedBeanDefinition(beanName).getResolvableType()
                        .as(WatcherDeclaration.class).getGeneric(0).resolve());
                continue;
            }
            ReflectionUtils.doWithMethods(ClassUtils.getUserClass(type), method -> {
                methods.add(method);
                for (Class<?> parameter : method.getParameterTypes()) {
                    addModel(models, parameter);
                }
                for (ResolvableType parameter : ResolvableType.forMethodParameter(method, 0).getGenerics()) {
                    addModel(models, parameter.resolve());
                }
                Reconciler reconciler = AnnotatedElementUtils.findMergedAnnotation(method, Reconciler.class);
                if (reconciler != null) {
                    for (Class<?> owned : reconciler.owns()) {
                        addModel(models, owned);
                    }
                    for (Class<?> owned : reconciler.ownsWhenServed()) {
                        addModel(models, owned);
                    }
                    for (Class<?> watched : reconciler.watches()) {
                        addModel(models, watched);
                    }
                }
            }, AnnotatedMethodsAotProcessor::annotated);
        }
        if (methods.isEmpty() && models.isEmpty()) {
            return null;
        }
        return (context, code) -> {
            RuntimeHints hints = context.getRuntimeHints();
            methods.forEach(method -> hints.reflection().registerMethod(method, ExecutableMode.INVOKE));
            models.forEach(model -> ModelHints.register(hints, model));
        };
    }

    private static boolean annotated(Method method) {
        return method.getParameterCount() > 0 && (AnnotatedElementUtils.hasAnnotation(method, Reconciler.class)
                || AnnotatedElementUtils.hasAnnotation(method, Cleanup.class)
                || AnnotatedElementUtils.hasAnnotation(method, WatchListener.class));
    }

    private static void addModel(Set<Class<?>> models, Class<?> type) {
        if (type != null && KubernetesObject.class.isAssignableFrom(type) && !type.isInterface()) {
            models.add(type);
            StorageVersion storage = type.getAnnotation(StorageVersion.class);
            if (storage != null) { // the conversion webhook reads and makes the other versions
                models.addAll(List.of(storage.otherVersions()));
            }
        }
    }

    private static Class<?> beanType(ConfigurableListableBeanFactory beanFactory, String beanName) {
        try {
            return beanFactory.getType(beanName, false);
        } catch (RuntimeException | LinkageError unknown) {
            return null; // a bean whose type cannot be known before it exists has no annotated methods to find
        }
    }
}
