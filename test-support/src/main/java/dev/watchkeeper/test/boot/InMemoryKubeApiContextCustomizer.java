package dev.watchkeeper.test.boot;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Registers the {@link InMemoryApiServer} bean and a primary {@link ApiClient} pointing at it. Bean definitions,
 * not singletons, so they exist before configuration classes are parsed ({@code @ConditionalOnMissingBean(ApiClient)}
 * sees them) and the server is closed with the context, after the application's watchers have stopped.
 */
final class InMemoryKubeApiContextCustomizer implements ContextCustomizer {

    /** The server's bean name. */
    static final String SERVER = "inMemoryApiServer";

    /** The client's bean name. */
    static final String CLIENT = "inMemoryApiServerApiClient";

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
        ConfigurableListableBeanFactory beans = context.getBeanFactory();
        BeanDefinitionRegistry registry = (BeanDefinitionRegistry) beans;

        RootBeanDefinition server = new RootBeanDefinition(InMemoryApiServer.class,
                () -> new InMemoryApiServer().start());
        server.setDestroyMethodName("close");
        registry.registerBeanDefinition(SERVER, server);

        RootBeanDefinition client = new RootBeanDefinition(ApiClient.class,
                () -> beans.getBean(SERVER, InMemoryApiServer.class).apiClient());
        client.setPrimary(true);
        client.setDependsOn(SERVER);
        registry.registerBeanDefinition(CLIENT, client);
    }

    // Stateless: every test class with the annotation may share one cached context.
    @Override
    public boolean equals(Object other) {
        return other != null && other.getClass() == getClass();
    }

    @Override
    public int hashCode() {
        return getClass().hashCode();
    }
}
