package dev.watchkeeper.test.boot;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.test.controlplane.KubeControlPlane;
import dev.watchkeeper.test.stub.KubeApiStub;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.function.Function;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Registers a test API server bean (the in-memory server, the scripted stub or the real control plane) and what
 * reaches it: a {@link KubeApiConnection}, from which Watchkeeper builds the application's client, or for the stub a
 * primary {@link ApiClient} of its own (its client must not retry a scripted connection fault behind the caller's
 * back, and is cut off when the stub closes). Bean definitions, not singletons, so they exist before configuration
 * classes are parsed ({@code @ConditionalOnBean(KubeApiConnection)} and {@code @ConditionalOnMissingBean(ApiClient)}
 * see them) and a server the test started is closed with the context, after the application's watchers stopped.
 */
final class KubeApiContextCustomizer<S> implements ContextCustomizer {

    /** The in-memory server's bean name. */
    static final String IN_MEMORY_SERVER = "inMemoryApiServer";

    /** The stub's bean name. */
    static final String STUB = "kubeApiStub";

    /** The real control plane's bean name. */
    static final String CONTROL_PLANE = "kubeControlPlane";

    private final String serverName;
    private final Class<S> serverType;
    private final Function<ConfigurableListableBeanFactory, S> start;
    private final boolean closeWithContext;
    private final Reach<S, ?> reach;

    private KubeApiContextCustomizer(String serverName, Class<S> serverType,
            Function<ConfigurableListableBeanFactory, S> start, boolean closeWithContext, Reach<S, ?> reach) {
        this.serverName = serverName;
        this.serverType = serverType;
        this.start = start;
        this.closeWithContext = closeWithContext;
        this.reach = reach;
    }

    /** The bean that reaches the server: its type, its name after the server's, whether primary, how made. */
    private record Reach<S, T>(Class<T> type, String suffix, boolean primary, Function<S, T> from) {

        static <S> Reach<S, KubeApiConnection> connection(Function<S, KubeApiConnection> from) {
            return new Reach<>(KubeApiConnection.class, "Connection", false, from);
        }
    }

    /** For {@link AutoConfigureInMemoryKubeApi}. */
    static KubeApiContextCustomizer<InMemoryApiServer> inMemoryServer() {
        return new KubeApiContextCustomizer<>(IN_MEMORY_SERVER, InMemoryApiServer.class,
                beans -> new InMemoryApiServer().start(), true, Reach.connection(
                        server -> new KubeApiConnection(server.kubeconfig(), "the test's in-memory API server")));
    }

    /** For {@link AutoConfigureKubeApiStub}: scripted by every {@link KubeApiStubCustomizer} bean, in order. */
    static KubeApiContextCustomizer<KubeApiStub> stub() {
        return new KubeApiContextCustomizer<>(STUB, KubeApiStub.class, beans -> {
            KubeApiStub started = new KubeApiStub().start();
            beans.getBeanProvider(KubeApiStubCustomizer.class).orderedStream()
                    .forEach(customizer -> customizer.customize(started));
            return started;
        }, true, new Reach<>(ApiClient.class, "ApiClient", true, KubeApiStub::apiClient));
    }

    /** For {@link AutoConfigureRealKubeApi}: the JVM's control plane, which outlives the context. */
    static KubeApiContextCustomizer<KubeControlPlane> controlPlane() {
        return new KubeApiContextCustomizer<>(CONTROL_PLANE, KubeControlPlane.class,
                beans -> KubeControlPlane.shared(), false, Reach.connection(plane -> {
                    try {
                        return new KubeApiConnection(Files.readString(plane.kubeconfig()),
                                "the real control plane (" + plane.kubeconfig() + ")");
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }));
    }

    /** The name of the bean that reaches the server, e.g. {@code inMemoryApiServerConnection}. */
    String reachName() {
        return serverName + reach.suffix();
    }

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
        ConfigurableListableBeanFactory beans = context.getBeanFactory();
        BeanDefinitionRegistry registry = (BeanDefinitionRegistry) beans;

        RootBeanDefinition server = new RootBeanDefinition(serverType, () -> start.apply(beans));
        if (closeWithContext) {
            server.setDestroyMethodName("close");
        }
        registry.registerBeanDefinition(serverName, server);

        registry.registerBeanDefinition(reachName(), reachDefinition(beans, reach));
    }

    private <T> RootBeanDefinition reachDefinition(ConfigurableListableBeanFactory beans, Reach<S, T> reach) {
        RootBeanDefinition definition = new RootBeanDefinition(reach.type(),
                () -> reach.from().apply(beans.getBean(serverName, serverType)));
        definition.setPrimary(reach.primary());
        definition.setDependsOn(serverName);
        return definition;
    }

    // Stateless apart from which server: test classes with the same annotation may share one cached context (the
    // stub's scripts come from beans, which are part of the context's own cache key).
    @Override
    public boolean equals(Object other) {
        return other instanceof KubeApiContextCustomizer<?> that && that.serverName.equals(serverName);
    }

    @Override
    public int hashCode() {
        return serverName.hashCode();
    }
}
