package dev.watchkeeper.test.boot;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.test.stub.KubeApiStub;
import io.kubernetes.client.openapi.ApiClient;
import java.util.function.Function;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Registers a fake API server bean (the in-memory server or the scripted stub) and a primary {@link ApiClient}
 * pointing at it. Bean definitions, not singletons, so they exist before configuration classes are parsed
 * ({@code @ConditionalOnMissingBean(ApiClient)} sees them) and the server is closed with the context, after the
 * application's watchers have stopped.
 */
final class FakeApiContextCustomizer<S> implements ContextCustomizer {

    /** The in-memory server's bean name. */
    static final String IN_MEMORY_SERVER = "inMemoryApiServer";

    /** The stub's bean name. */
    static final String STUB = "kubeApiStub";

    private final String serverName;
    private final Class<S> serverType;
    private final Function<ConfigurableListableBeanFactory, S> start;
    private final Function<S, ApiClient> client;

    private FakeApiContextCustomizer(String serverName, Class<S> serverType,
            Function<ConfigurableListableBeanFactory, S> start, Function<S, ApiClient> client) {
        this.serverName = serverName;
        this.serverType = serverType;
        this.start = start;
        this.client = client;
    }

    /** For {@link AutoConfigureInMemoryKubeApi}. */
    static FakeApiContextCustomizer<InMemoryApiServer> inMemoryServer() {
        return new FakeApiContextCustomizer<>(IN_MEMORY_SERVER, InMemoryApiServer.class,
                beans -> new InMemoryApiServer().start(), InMemoryApiServer::apiClient);
    }

    /** For {@link AutoConfigureKubeApiStub}: scripted by every {@link KubeApiStubCustomizer} bean, in order. */
    static FakeApiContextCustomizer<KubeApiStub> stub() {
        return new FakeApiContextCustomizer<>(STUB, KubeApiStub.class, beans -> {
            KubeApiStub started = new KubeApiStub().start();
            beans.getBeanProvider(KubeApiStubCustomizer.class).orderedStream()
                    .forEach(customizer -> customizer.customize(started));
            return started;
        }, KubeApiStub::apiClient);
    }

    /** The client's bean name, e.g. {@code inMemoryApiServerApiClient}. */
    String clientName() {
        return serverName + "ApiClient";
    }

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
        ConfigurableListableBeanFactory beans = context.getBeanFactory();
        BeanDefinitionRegistry registry = (BeanDefinitionRegistry) beans;

        RootBeanDefinition server = new RootBeanDefinition(serverType, () -> start.apply(beans));
        server.setDestroyMethodName("close");
        registry.registerBeanDefinition(serverName, server);

        RootBeanDefinition apiClient = new RootBeanDefinition(ApiClient.class,
                () -> client.apply(beans.getBean(serverName, serverType)));
        apiClient.setPrimary(true);
        apiClient.setDependsOn(serverName);
        registry.registerBeanDefinition(clientName(), apiClient);
    }

    // Stateless apart from which fake: test classes with the same annotation may share one cached context (the
    // stub's scripts come from beans, which are part of the context's own cache key).
    @Override
    public boolean equals(Object other) {
        return other instanceof FakeApiContextCustomizer<?> that && that.serverName.equals(serverName);
    }

    @Override
    public int hashCode() {
        return serverName.hashCode();
    }
}
