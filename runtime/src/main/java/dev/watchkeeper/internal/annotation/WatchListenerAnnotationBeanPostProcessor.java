package dev.watchkeeper.internal.annotation;

import dev.watchkeeper.annotation.WatchListener;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.watch.BufferedWatchEventListener;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatchEventListener;
import dev.watchkeeper.internal.watch.Watcher;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.util.ReflectionUtils;

/**
 * Finds {@link WatchListener @WatchListener} methods on beans and attaches each, behind its own
 * {@link BufferedWatchEventListener}, to the watchers of its name. Listeners attach just before the registry starts
 * its watchers (phase {@code WatchkeeperRegistry.PHASE - 2}), so they see the first {@code Init}; a listener of a
 * bean created later attaches at once. Declare it as a {@code static @Bean}.
 *
 * <pre>{@code
 * @Bean
 * static WatchListenerAnnotationBeanPostProcessor watchListenerAnnotationBeanPostProcessor() {
 *     return new WatchListenerAnnotationBeanPostProcessor();
 * }
 * }</pre>
 */
public class WatchListenerAnnotationBeanPostProcessor
        implements BeanPostProcessor, BeanFactoryAware, EnvironmentAware, SmartLifecycle {

    /** A checked method waiting for its watchers. */
    private record Found(String beanName, Object bean, Method method, String watcherName, int bufferSize) {
    }

    private final List<Found> pending = new ArrayList<>();
    private final List<BufferedWatchEventListener<?>> listeners = new CopyOnWriteArrayList<>();
    private BeanFactory beanFactory;
    private Environment environment;
    private volatile boolean running;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        Map<Method, WatchListener> methods = AnnotatedMethods.find(AopUtils.getTargetClass(bean), WatchListener.class);
        if (methods.isEmpty()) {
            return bean;
        }
        List<Found> found = new ArrayList<>();
        methods.forEach((method, annotation) -> {
            Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
            if (invocable.getParameterCount() != 1) {
                throw invalid(beanName, method, "it must take one parameter: a WatchEvent, one of its records, or"
                        + " the watched object type");
            }
            String name;
            try {
                name = AnnotatedMethods.resolve(environment::resolvePlaceholders, annotation.value());
            } catch (IllegalArgumentException e) {
                throw invalid(beanName, method, e.getMessage());
            }
            if (name.isEmpty()) {
                throw invalid(beanName, method, "it must name a watcher");
            }
            found.add(new Found(beanName, bean, invocable, name, annotation.bufferSize()));
        });
        synchronized (pending) {
            if (running) {
                found.forEach(this::attach);
            } else {
                pending.addAll(found);
            }
        }
        return bean;
    }

    /** Every attached listener, one per method and watcher. */
    public List<BufferedWatchEventListener<?>> listeners() {
        return List.copyOf(listeners);
    }

    @Override
    public void start() {
        synchronized (pending) {
            pending.forEach(this::attach);
            pending.clear();
            running = true;
        }
    }

    @Override
    public void stop() {
        running = false;
        listeners.forEach(BufferedWatchEventListener::close);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return WatchkeeperRegistry.PHASE - 2;
    }

    private void attach(Found found) {
        WatchkeeperRegistry registry = beanFactory.getBean(WatchkeeperRegistry.class);
        List<Watcher<?>> watchers = registry.watchersNamed(found.watcherName());
        if (watchers.isEmpty()) {
            throw invalid(found.beanName(), found.method(), "there is no watcher named '" + found.watcherName()
                    + "'; known: " + registry.watchers().stream().map(Watcher::name).toList());
        }
        for (Watcher<?> watcher : watchers) {
            attach(found, watcher, registry);
        }
    }

    private <T extends KubernetesObject> void attach(Found found, Watcher<T> watcher, WatchkeeperRegistry registry) {
        WatchEventListener<T> target = target(found, watcher.type().javaType());
        String listenerName = found.beanName() + "." + found.method().getName();
        BufferedWatchEventListener<T> buffered = new BufferedWatchEventListener<>(watcher.name(), listenerName,
                found.bufferSize(), registry.services().watcherThreads(), target);
        watcher.addListener(buffered);
        listeners.add(buffered);
        buffered.start();
    }

    /** Checks the parameter against the watched type and adapts the method to a listener. */
    private <T extends KubernetesObject> WatchEventListener<T> target(Found found, Class<T> watched) {
        Method method = found.method();
        Class<?> parameter = method.getParameterTypes()[0];
        ReflectionUtils.makeAccessible(method);
        if (WatchEvent.class.isAssignableFrom(parameter)) {
            Class<?> generic = ResolvableType.forMethodParameter(method, 0).getGeneric(0).resolve();
            if (generic != null && !generic.isAssignableFrom(watched)) {
                throw invalid(found.beanName(), method, "it takes events of " + generic.getSimpleName()
                        + " but watcher '" + found.watcherName() + "' watches " + watched.getSimpleName());
            }
            return event -> {
                if (parameter.isInstance(event)) {
                    invoke(found, event);
                }
            };
        }
        if (parameter.isAssignableFrom(watched)) {
            return event -> {
                if (event instanceof WatchEvent.Apply<T> apply) {
                    invoke(found, apply.object());
                } else if (event instanceof WatchEvent.InitApply<T> apply) {
                    invoke(found, apply.object());
                }
            };
        }
        throw invalid(found.beanName(), method, "its parameter must be a WatchEvent, one of its records, or "
                + watched.getSimpleName() + " (what watcher '" + found.watcherName() + "' watches), but is "
                + parameter.getName());
    }

    private static void invoke(Found found, Object argument) {
        try {
            AnnotatedMethods.invoke(found.bean(), found.method(), argument);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static IllegalStateException invalid(String beanName, Method method, String problem) {
        return AnnotatedMethods.invalid(WatchListener.class, beanName, method, problem);
    }
}
