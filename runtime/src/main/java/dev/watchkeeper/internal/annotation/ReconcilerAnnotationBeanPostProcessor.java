package dev.watchkeeper.internal.annotation;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.internal.reconcile.Finalizer;
import dev.watchkeeper.reconcile.SecondaryMapper;
import dev.watchkeeper.reconcile.TriggerFilter;
import dev.watchkeeper.internal.registry.ReconcilerDeclaration;
import dev.watchkeeper.internal.registry.SecondaryDeclaration;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.registry.WatcherSpec;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

/**
 * Finds {@link Reconciler @Reconciler} methods on beans and registers a reconciler for each with the
 * {@link WatchkeeperRegistry} bean (modelled on {@code ScheduledAnnotationBeanPostProcessor}). Methods are parsed
 * and checked by {@link ReconcilerParser}, so a wrong signature fails start-up naming the bean and method: as each
 * bean is initialized, unless the {@link ParsedReconcilers} it is given parsed the bean earlier (Spring Boot's
 * watcher registrar does, and decides the namespaces configured per reconciler); placeholders are resolved from the
 * {@link Environment}; declarations are registered once all singletons exist, so mapper and filter beans can be
 * looked up. Declare it as a {@code static @Bean}:
 *
 * <pre>{@code
 * @Bean
 * static ReconcilerAnnotationBeanPostProcessor reconcilerAnnotationBeanPostProcessor() {
 *     return new ReconcilerAnnotationBeanPostProcessor();
 * }
 * }</pre>
 */
public class ReconcilerAnnotationBeanPostProcessor
        implements BeanPostProcessor, BeanFactoryAware, EnvironmentAware, SmartInitializingSingleton, Ordered {

    /** A parsed method on its bean, waiting for registration; {@code cleanup} is {@code null} without a finalizer. */
    private record Found(ParsedReconciler parsed, ReconcilerMethod function, ReconcilerMethod cleanup) {
    }

    private final List<Found> pending = new ArrayList<>();
    /** Given, or made from the environment once it is set. */
    private ParsedReconcilers reconcilers;
    private ListableBeanFactory beanFactory;
    private Environment environment;
    private boolean singletonsReady;

    /** Reconcilers in the namespaces their annotations name, each bean's methods parsed when it is initialized. */
    public ReconcilerAnnotationBeanPostProcessor() {
    }

    /**
     * Reconcilers as {@code reconcilers} parsed them, or parses, for beans an earlier phase (the watcher registrar)
     * did not parse.
     */
    public ReconcilerAnnotationBeanPostProcessor(ParsedReconcilers reconcilers) {
        this.reconcilers = Objects.requireNonNull(reconcilers, "reconcilers");
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        if (!(beanFactory instanceof ListableBeanFactory listable)) {
            throw new IllegalStateException("@Reconciler needs a ListableBeanFactory to find mapper beans");
        }
        this.beanFactory = listable;
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
        if (reconcilers == null) {
            reconcilers = new ParsedReconcilers(environment::resolvePlaceholders, NamespaceOverrides.none());
        }
    }

    @Override
    public int getOrder() {
        return LOWEST_PRECEDENCE;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        List<Found> found = new ArrayList<>();
        for (ParsedReconciler parsed : reconcilers.take(beanName, AopUtils.getTargetClass(bean))) {
            Method invocable = AopUtils.selectInvocableMethod(parsed.method(), bean.getClass());
            ParsedReconciler.Finalization finalization = parsed.finalization();
            ReconcilerMethod cleanup = finalization == null ? null : new ReconcilerMethod(bean,
                    AopUtils.selectInvocableMethod(finalization.method(), bean.getClass()), finalization.takesContext());
            found.add(new Found(parsed, new ReconcilerMethod(bean, invocable, parsed.takesContext()), cleanup));
        }
        if (found.isEmpty()) {
            return bean;
        }
        createWatchers(found);
        synchronized (pending) {
            if (singletonsReady) {
                found.forEach(this::register); // a lazy bean created after start-up
            } else {
                pending.addAll(found);
            }
        }
        return bean;
    }

    /**
     * Has the registry create the reconcilers' watchers now, while their bean is created, rather than when the
     * reconcilers are registered after every singleton: a registry that starts watchers when created
     * ({@link WatchkeeperRegistry#startWatchers}) then fills their caches while the rest of the application starts.
     * Skipped while the registry itself is being created (a bean it depends on is a reconciler).
     */
    private void createWatchers(List<Found> found) {
        String[] registries = beanFactory.getBeanNamesForType(WatchkeeperRegistry.class, false, false);
        if (registries.length != 1 || beanFactory instanceof ConfigurableListableBeanFactory configurable
                && configurable.isCurrentlyInCreation(registries[0])) {
            return; // registering the reconcilers says what is wrong with no registry, or several
        }
        WatchkeeperRegistry registry = beanFactory.getBean(WatchkeeperRegistry.class);
        found.forEach(f -> registry.createWatchers(f.parsed().name(), f.parsed().watchers()));
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
        ReconcilerDeclaration<?> declaration;
        try {
            declaration = declaration(found);
        } catch (IllegalArgumentException e) {
            throw found.parsed().invalid(e.getMessage());
        }
        beanFactory.getBean(WatchkeeperRegistry.class).registerReconciler(declaration);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private ReconcilerDeclaration<?> declaration(Found found) {
        ParsedReconciler parsed = found.parsed();
        Reconciler annotation = parsed.annotation();
        List<SecondaryDeclaration<?>> secondaries = new ArrayList<>();
        parsed.owned().forEach(owned -> secondaries.add(SecondaryDeclaration.owned(owned)));
        parsed.ownedWhenServed().forEach(owned -> secondaries.add(SecondaryDeclaration.ownedWhenServed(owned)));
        for (WatcherSpec<?> watched : parsed.watched()) {
            secondaries.add(SecondaryDeclaration.watched(watched,
                    (SecondaryMapper) mapper(parsed, watched.type().javaType())));
        }
        TriggerFilter filter = annotation.filter().isEmpty() ? null
                : beanFactory.getBean(AnnotatedMethods.resolve(environment::resolvePlaceholders, annotation.filter()),
                        TriggerFilter.class);
        Finalizer finalizer = found.cleanup() == null ? null
                : new Finalizer(parsed.finalization().finalizer(), found.cleanup());
        return new ReconcilerDeclaration(parsed.name(), parsed.primary(), secondaries, found.function(),
                annotation.concurrency(), Set.of(annotation.triggerOn()), filter, parsed.source(), parsed.debounce(),
                parsed.namespaces(), finalizer, parsed.timeout());
    }

    /** The one {@code SecondaryMapper<S>} bean for {@code type}, among the named ones when names are given. */
    private SecondaryMapper<?> mapper(ParsedReconciler parsed, Class<?> type) {
        ResolvableType wanted = ResolvableType.forClassWithGenerics(SecondaryMapper.class, type);
        List<String> named = Arrays.stream(parsed.annotation().mapper())
                .map(name -> AnnotatedMethods.resolve(environment::resolvePlaceholders, name)).toList();
        List<String> candidates = Arrays.stream(beanFactory.getBeanNamesForType(wanted))
                .filter(candidate -> named.isEmpty() || named.contains(candidate)).toList();
        if (candidates.size() != 1) {
            throw parsed.invalid(candidates.isEmpty()
                    ? "it watches " + type.getSimpleName() + " but there is no SecondaryMapper<" + type.getSimpleName()
                            + "> bean" + (named.isEmpty() ? "" : " among " + named)
                    : "it watches " + type.getSimpleName() + " and several SecondaryMapper<" + type.getSimpleName()
                            + "> beans fit: " + candidates + "; name one in mapper");
        }
        return beanFactory.getBean(candidates.get(0), SecondaryMapper.class);
    }
}
