package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.registry.WatcherDeclaration;
import dev.watchkeeper.internal.annotation.ParsedReconciler;
import dev.watchkeeper.internal.annotation.ParsedReconcilers;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.registry.WatchkeeperSettings;
import dev.watchkeeper.internal.registry.WatcherSpec;
import dev.watchkeeper.internal.store.MergedStore;
import dev.watchkeeper.store.Store;
import dev.watchkeeper.internal.watch.Watcher;
import io.kubernetes.client.common.KubernetesObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * Makes every watcher a singleton bean before any bean is created, so it can be injected and shows in
 * {@code /actuator/beans}: watchers declared in {@code watchkeeper.watchers.<name>.*}, {@code @Bean}s returning a
 * {@link WatcherDeclaration}, and the watchers of {@code @Reconciler} methods (found on the bean classes). Each
 * watcher is two beans, {@code watchkeeper.watcher.<name>} ({@code Watcher<T>}) and {@code watchkeeper.store.<name>}
 * ({@code Store<T>}), both qualified by the watcher's name and typed by their generic, so
 * {@code @Qualifier("app-config") Store<V1ConfigMap>} injects. The registry stays the one source of truth: each
 * bean's instance is {@code registry.watcher(declaration)}, so equal declarations (docs/semantics.md §11) are one instance
 * under several bean names. A {@code namespaces} set is one {@code Watcher} bean per namespace
 * ({@code <name>@<namespace>}) and one merged store bean {@code <name>}; a reconciler's namespace set is its
 * watchers' beans, one per namespace ({@code <plural>@<namespace>}). Being the first to read the properties, it
 * first fails start-up on a key under {@code watchkeeper.} that binds to nothing (a misspelt one). It keeps what it
 * parsed of each {@code @Reconciler} ({@link #reconcilers()}), which the post-processor then reads instead of
 * parsing again. Under Spring AOT its beans are left out of the generated code and it registers them when the
 * application starts, from that run's properties, as on the JVM.
 *
 * <pre>{@code
 * @Bean
 * static WatcherBeanRegistrar watcherBeanRegistrar() {
 *     return new WatcherBeanRegistrar();
 * }
 * }</pre>
 */
public class WatcherBeanRegistrar implements BeanDefinitionRegistryPostProcessor, EnvironmentAware {

    /** Prefix of the bean name of each watcher. */
    public static final String WATCHER_BEAN_PREFIX = "watchkeeper.watcher.";

    /** Prefix of the bean name of each store. */
    public static final String STORE_BEAN_PREFIX = "watchkeeper.store.";

    private Environment environment;
    /** Made on first use, once the environment is set. */
    private ParsedReconcilers reconcilers;
    private ReconcilerOverrides overrides;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
        if (!(registry instanceof ConfigurableListableBeanFactory beanFactory)) {
            return;
        }
        if (environment instanceof ConfigurableEnvironment configurable) {
            PropertyKeys.checkKnown(configurable); // the first step that reads the properties: fail before it
        }
        List<String> existing = List.of(registry.getBeanDefinitionNames());
        for (PropertyWatcher declared : PropertyWatcher.declaredIn(environment)) {
            registerProperty(registry, beanFactory, declared);
        }
        ParsedReconcilers reconcilers = reconcilers();
        boolean shardedByDefault = environment.getProperty("watchkeeper.sharding.enabled", Boolean.class, false);
        for (String beanName : existing) {
            Class<?> type = typeOf(beanFactory, beanName);
            if (type == null) {
                continue;
            }
            if (WatcherDeclaration.class.isAssignableFrom(type)) {
                registerDefinition(registry, beanFactory, beanName);
            } else {
                for (ParsedReconciler reconciler : reconcilers.parse(beanName, type)) {
                    if (overrides().sharded(reconciler.name(), shardedByDefault)) {
                        // its watchers hold only this replica's share: they are the registry's, not beans to inject
                        continue;
                    }
                    for (WatcherSpec<?> declaration : reconciler.watchers()) {
                        String name = declaration.effectiveName();
                        if (!registry.containsBeanDefinition(WATCHER_BEAN_PREFIX + name)) {
                            registerPair(registry, name, () -> name, declaration.type().javaType(),
                                    () -> registry(beanFactory).watcher(declaration));
                        }
                    }
                }
            }
        }
    }

    /**
     * The {@code @Reconciler} methods this registrar parsed, kept for the post-processor, so each is parsed once;
     * they take their namespaces from the one binding of {@code watchkeeper.reconcilers} ({@link ReconcilerOverrides}).
     */
    public ParsedReconcilers reconcilers() {
        if (reconcilers == null) {
            reconcilers = new ParsedReconcilers(environment::resolvePlaceholders, overrides());
        }
        return reconcilers;
    }

    private ReconcilerOverrides overrides() {
        if (overrides == null) {
            overrides = ReconcilerOverrides.bind(environment);
        }
        return overrides;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) throws BeansException {
    }

    private void registerProperty(BeanDefinitionRegistry registry, ConfigurableListableBeanFactory beanFactory,
            PropertyWatcher declared) {
        String name = declared.name();
        Class<?> javaType = declared.type().javaType();
        if (!declared.grouped()) {
            WatcherSpec<?> declaration = declared.declarations().get(0);
            registerPair(registry, name, () -> name, javaType, () -> registry(beanFactory).watcher(declaration));
            return;
        }
        Supplier<List<Watcher<?>>> group = () -> group(beanFactory, declared);
        for (int i = 0; i < declared.declarations().size(); i++) {
            int index = i;
            String member = declared.declarations().get(i).name();
            register(registry, WATCHER_BEAN_PREFIX + member, () -> member, Watcher.class, javaType,
                    () -> group.get().get(index));
        }
        register(registry, STORE_BEAN_PREFIX + name, () -> name, Store.class, javaType, () -> merged(group.get()));
    }

    /** The members, with the backoff and options of the group's name (the members' own names have no properties). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<Watcher<?>> group(ConfigurableListableBeanFactory beanFactory, PropertyWatcher declared) {
        WatchkeeperSettings settings = beanFactory.getBean(WatchkeeperSettings.class);
        List members = new ArrayList<>();
        for (WatcherSpec<?> member : declared.declarations()) {
            members.add(member.options(settings.watchOptions(declared.name()))
                    .backOff(settings.watcherBackOff(declared.name())));
        }
        return (List<Watcher<?>>) (List) registry(beanFactory).watcherGroup(declared.name(), members);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Store<?> merged(List<Watcher<?>> watchers) {
        List stores = new ArrayList<>();
        watchers.forEach(watcher -> stores.add(watcher.store()));
        return new MergedStore(stores);
    }

    /** A {@code @Bean} returning a {@link WatcherDeclaration}: named by {@code named(...)}, or else by the bean. */
    private void registerDefinition(BeanDefinitionRegistry registry, ConfigurableListableBeanFactory beanFactory,
            String beanName) {
        Class<?> javaType = definedType(beanFactory, beanName);
        Supplier<WatcherSpec<?>> declaration = () -> {
            WatcherDeclaration<?> declared = beanFactory.getBean(beanName, WatcherDeclaration.class);
            return spec(declared, beanName);
        };
        registerPair(registry, beanName, () -> declaration.get().name(), javaType,
                () -> registry(beanFactory).watcher(declaration.get()));
    }

    private static <T extends KubernetesObject> WatcherSpec<T> spec(WatcherDeclaration<T> declared, String beanName) {
        return WatcherSpec.of(declared.name() != null ? declared : declared.named(beanName));
    }

    private static Class<?> definedType(ConfigurableListableBeanFactory beanFactory, String beanName) {
        try {
            BeanDefinition merged = beanFactory.getMergedBeanDefinition(beanName);
            Class<?> resolved = merged.getResolvableType().as(WatcherDeclaration.class).getGeneric(0).resolve();
            return resolved != null ? resolved : KubernetesObject.class;
        } catch (RuntimeException unknown) {
            return KubernetesObject.class;
        }
    }

    private static void registerPair(BeanDefinitionRegistry registry, String beanNameSuffix, Supplier<String> name,
            Class<?> javaType, Supplier<Watcher<?>> watcher) {
        register(registry, WATCHER_BEAN_PREFIX + beanNameSuffix, name, Watcher.class, javaType, watcher);
        register(registry, STORE_BEAN_PREFIX + beanNameSuffix, name, Store.class, javaType,
                () -> watcher.get().store());
    }

    private static void register(BeanDefinitionRegistry registry, String beanName, Supplier<String> qualifier,
            Class<?> rawType, Class<?> javaType, Supplier<?> instance) {
        RootBeanDefinition definition = new RootBeanDefinition(rawType);
        definition.setTargetType(ResolvableType.forClassWithGenerics(rawType, javaType));
        definition.setInstanceSupplier(instance);
        definition.addQualifier(new NameQualifier(qualifier));
        // The registry starts and stops the watcher (AutoCloseable), which the bean is only a handle on.
        definition.setDestroyMethodName("");
        definition.setDescription("a Watchkeeper watcher, run by the WatchkeeperRegistry");
        registry.registerBeanDefinition(beanName, definition);
    }

    private static WatchkeeperRegistry registry(ConfigurableListableBeanFactory beanFactory) {
        return beanFactory.getBean(WatchkeeperRegistry.class);
    }

    private static Class<?> typeOf(ConfigurableListableBeanFactory beanFactory, String beanName) {
        try {
            return beanFactory.getType(beanName, false);
        } catch (RuntimeException | LinkageError unknown) {
            return null;
        }
    }

    /** {@code @Qualifier("<watcher name>")}, the name read when an injection point asks (a definition's may be late). */
    private static final class NameQualifier extends AutowireCandidateQualifier {

        private final Supplier<String> name;

        NameQualifier(Supplier<String> name) {
            super(Qualifier.class);
            this.name = name;
        }

        @Override
        public Object getAttribute(String attribute) {
            return VALUE_KEY.equals(attribute) ? name.get() : super.getAttribute(attribute);
        }
    }
}
