package dev.watchkeeper.test.boot;

import dev.watchkeeper.test.stub.KubeApiStub;
import io.kubernetes.client.openapi.ApiClient;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Registers the {@link KubeApiStub} bean, scripted by every {@link KubeApiStubCustomizer} bean as it is created, and
 * a primary {@link ApiClient} pointing at it. The client depends on the stub bean, so no watcher can call the stub
 * before the customizers have run.
 */
final class KubeApiStubContextCustomizer implements ContextCustomizer {

    /** The stub's bean name. */
    static final String STUB = "kubeApiStub";

    /** The client's bean name. */
    static final String CLIENT = "kubeApiStubApiClient";

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
        ConfigurableListableBeanFactory beans = context.getBeanFactory();
        BeanDefinitionRegistry registry = (BeanDefinitionRegistry) beans;

        RootBeanDefinition stub = new RootBeanDefinition(KubeApiStub.class, () -> {
            KubeApiStub started = new KubeApiStub().start();
            beans.getBeanProvider(KubeApiStubCustomizer.class).orderedStream()
                    .forEach(customizer -> customizer.customize(started));
            return started;
        });
        stub.setDestroyMethodName("close");
        registry.registerBeanDefinition(STUB, stub);

        RootBeanDefinition client = new RootBeanDefinition(ApiClient.class,
                () -> beans.getBean(STUB, KubeApiStub.class).apiClient());
        client.setPrimary(true);
        client.setDependsOn(STUB);
        registry.registerBeanDefinition(CLIENT, client);
    }

    // Stateless: scripts come from beans, which are part of the context's own cache key.
    @Override
    public boolean equals(Object other) {
        return other != null && other.getClass() == getClass();
    }

    @Override
    public int hashCode() {
        return getClass().hashCode();
    }
}
