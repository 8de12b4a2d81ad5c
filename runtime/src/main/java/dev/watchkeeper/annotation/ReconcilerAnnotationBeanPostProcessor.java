package dev.watchkeeper.annotation;

import dev.watchkeeper.controller.SecondaryMapper;
import dev.watchkeeper.controller.TriggerFilter;
import dev.watchkeeper.registry.ControllerDeclaration;
import dev.watchkeeper.registry.SecondaryDeclaration;
import dev.watchkeeper.registry.WatchkeeperRegistry;
import dev.watchkeeper.registry.WatcherDeclaration;
import dev.watchkeeper.resource.ResourceType;
import dev.watchkeeper.watch.WatchScope;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.EmbeddedValueResolverAware;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.StringValueResolver;

/**
 * Finds {@link Reconciler @Reconciler} methods on beans and registers a controller for each with the
 * {@link WatchkeeperRegistry} bean (modelled on {@code ScheduledAnnotationBeanPostProcessor}). Methods are checked
 * as each bean is initialized, so a wrong signature fails start-up naming the bean and method; declarations are
 * registered once all singletons exist, so mapper and filter beans can be looked up. Declare it as a
 * {@code static @Bean}:
 *
 * <pre>{@code
 * @Bean
 * static ReconcilerAnnotationBeanPostProcessor reconcilerAnnotationBeanPostProcessor() {
 *     return new ReconcilerAnnotationBeanPostProcessor();
 * }
 * }</pre>
 */
public class ReconcilerAnnotationBeanPostProcessor
        implements BeanPostProcessor, BeanFactoryAware, EmbeddedValueResolverAware, SmartInitializingSingleton,
        Ordered {

    /** A checked method waiting for registration. */
    private record Found(String beanName, Method method, Reconciler annotation, ReconcilerMethod function) {
    }

    private final List<Found> pending = new ArrayList<>();
    private ListableBeanFactory beanFactory;
    private StringValueResolver resolver;
    private boolean singletonsReady;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        if (!(beanFactory instanceof ListableBeanFactory listable)) {
            throw new IllegalStateException("@Reconciler needs a ListableBeanFactory to find mapper beans");
        }
        this.beanFactory = listable;
    }

    @Override
    public void setEmbeddedValueResolver(StringValueResolver resolver) {
        this.resolver = resolver;
    }

    @Override
    public int getOrder() {
        return LOWEST_PRECEDENCE;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        Class<?> targetClass = AopUtils.getTargetClass(bean);
        if (!AnnotationUtils.isCandidateClass(targetClass, Reconciler.class)) {
            return bean;
        }
        Map<Method, Reconciler> methods = MethodIntrospector.selectMethods(targetClass,
                (MethodIntrospector.MetadataLookup<Reconciler>) method ->
                        AnnotatedElementUtils.findMergedAnnotation(method, Reconciler.class));
        List<Found> found = new ArrayList<>();
        methods.forEach((method, annotation) -> {
            Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
            found.add(new Found(beanName, method, annotation, ReconcilerMethod.of(bean, beanName, invocable)));
        });
        synchronized (pending) {
            if (singletonsReady) {
                found.forEach(this::register); // a lazy bean created after start-up
            } else {
                pending.addAll(found);
            }
        }
        return bean;
    }

    @Override
    public void afterSingletonsInstantiated() {
        synchronized (pending) {
            singletonsReady = true;
            pending.forEach(this::register);
            pending.clear();
        }
    }

    private void register(Found found) {
        ControllerDeclaration<?> declaration;
        try {
            declaration = declaration(found);
        } catch (IllegalArgumentException e) {
            throw ReconcilerMethod.invalid(found.beanName(), found.method(), e.getMessage());
        }
        registry().registerController(declaration);
    }

    private WatchkeeperRegistry registry() {
        return beanFactory.getBean(WatchkeeperRegistry.class);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private ControllerDeclaration<?> declaration(Found found) {
        Reconciler annotation = found.annotation();
        String source = ReconcilerMethod.describe(found.beanName(), found.method());
        String name = resolve(annotation.name());
        if (name.isEmpty()) {
            name = found.beanName() + "-" + found.method().getName();
        }
        // The same computation as ReconcilerWatchers, so a watcher made a bean early is the one the controller gets.
        WatcherDeclaration<?> primary;
        try {
            primary = ReconcilerWatchers.primary(found.function().primaryType(), annotation, this::resolve);
        } catch (IllegalArgumentException e) {
            throw ReconcilerMethod.invalid(found.beanName(), found.method(), e.getMessage());
        }
        WatchScope scope = primary.scope();
        List<SecondaryDeclaration<?>> secondaries = new ArrayList<>();
        WatchScope secondaryScope = WatchScope.namespace(scope.namespace());
        for (Class<? extends KubernetesObject> owned : annotation.owns()) {
            secondaries.add(SecondaryDeclaration.owned(WatcherDeclaration.of(secondaryType(found, owned),
                    secondaryScope)));
        }
        for (Class<? extends KubernetesObject> watched : annotation.watches()) {
            secondaries.add(SecondaryDeclaration.watched(WatcherDeclaration.of(secondaryType(found, watched),
                    secondaryScope), (SecondaryMapper) mapper(found, watched)));
        }
        TriggerFilter filter = annotation.filter().isEmpty() ? null
                : beanFactory.getBean(resolve(annotation.filter()), TriggerFilter.class);
        return new ControllerDeclaration(name, primary, secondaries,
                (dev.watchkeeper.controller.ReconcileFunction) found.function(), annotation.concurrency(),
                Set.of(annotation.triggerOn()), filter, source);
    }

    private ResourceType<?> secondaryType(Found found, Class<? extends KubernetesObject> type) {
        try {
            return ResourceTypes.resolve(type);
        } catch (IllegalArgumentException e) {
            throw ReconcilerMethod.invalid(found.beanName(), found.method(), e.getMessage());
        }
    }

    /** The one {@code SecondaryMapper<S>} bean for {@code type}, among the named ones when names are given. */
    private SecondaryMapper<?> mapper(Found found, Class<?> type) {
        ResolvableType wanted = ResolvableType.forClassWithGenerics(SecondaryMapper.class, type);
        List<String> named = Arrays.stream(found.annotation().mapper()).map(this::resolve).toList();
        List<String> candidates = Arrays.stream(beanFactory.getBeanNamesForType(wanted))
                .filter(candidate -> named.isEmpty() || named.contains(candidate)).toList();
        if (candidates.size() != 1) {
            throw ReconcilerMethod.invalid(found.beanName(), found.method(), (candidates.isEmpty()
                    ? "it watches " + type.getSimpleName() + " but there is no SecondaryMapper<" + type.getSimpleName()
                            + "> bean" + (named.isEmpty() ? "" : " among " + named)
                    : "it watches " + type.getSimpleName() + " and several SecondaryMapper<" + type.getSimpleName()
                            + "> beans fit: " + candidates + "; name one in mapper"));
        }
        return beanFactory.getBean(candidates.get(0), SecondaryMapper.class);
    }

    private String resolve(String value) {
        if (value == null || value.isEmpty() || resolver == null) {
            return value == null ? "" : value;
        }
        String resolved = resolver.resolveStringValue(value);
        if (resolved != null && resolved.contains("${")) {
            throw new IllegalArgumentException("cannot resolve the placeholder in '" + value + "'");
        }
        return resolved == null ? "" : resolved;
    }
}
