package dev.watchkeeper.internal.aot;

import dev.watchkeeper.autoconfigure.WatcherBeanRegistrar;
import org.springframework.beans.factory.aot.BeanRegistrationExcludeFilter;
import org.springframework.beans.factory.support.RegisteredBean;

/**
 * Leaves the watcher and store beans of {@link WatcherBeanRegistrar} out of the generated bean definitions: their
 * instances come from suppliers over the registry, which AOT cannot write as code, and the registrar, itself a
 * generated bean, registers them again when the application starts, from the properties it runs with then.
 */
public final class WatcherBeansExcludeFilter implements BeanRegistrationExcludeFilter {

    @Override
    public boolean isExcludedFromAotProcessing(RegisteredBean registeredBean) {
        String name = registeredBean.getBeanName();
        return name.startsWith(WatcherBeanRegistrar.WATCHER_BEAN_PREFIX)
                || name.startsWith(WatcherBeanRegistrar.STORE_BEAN_PREFIX);
    }
}
