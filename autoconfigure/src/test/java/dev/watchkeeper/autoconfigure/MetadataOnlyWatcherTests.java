package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.registry.WatcherDeclaration;
import dev.watchkeeper.resource.PartialObjectMetadata;
import dev.watchkeeper.store.Store;
import dev.watchkeeper.internal.watch.Watcher;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.ResolvableType;

/** {@code watchkeeper.watchers.<name>.watch.metadata-only}: what it declares, and where it does not apply. */
class MetadataOnlyWatcherTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class))
            .withBean(ApiClient.class, () -> new ApiClient().setBasePath("http://127.0.0.1:1"));

    @Test
    void aWatcherDeclaredMetadataOnlyCachesPartialObjectMetadataAndIsInjectableAsSuch() {
        runner.withPropertyValues("watchkeeper.watchers.secret-names.resource=v1/secrets",
                "watchkeeper.watchers.secret-names.watch.metadata-only=true",
                "watchkeeper.watchers.secrets.resource=v1/secrets").run(context -> {
                    WatchkeeperRegistry registry = context.getBean(WatchkeeperRegistry.class);
                    Watcher<?> names = registry.watcher("secret-names").orElseThrow();
                    assertThat(names.type().javaType()).isEqualTo(PartialObjectMetadata.class);
                    assertThat(names.type().apiVersion() + "/" + names.type().kind()).isEqualTo("v1/Secret");
                    assertThat(registry.watcher("secrets").orElseThrow()).as("a full watcher is another watcher")
                            .isNotSameAs(names).extracting(watcher -> watcher.type().isMetadataOnly()).isEqualTo(false);
                    assertThat(context.getBeanProvider(ResolvableType.forClassWithGenerics(Store.class,
                            PartialObjectMetadata.class)).getObject()).isSameAs(names.store());
                });
    }

    @Test
    void metadataOnlyForAWatcherDeclaredInCodeFailsStartUpNamingTheProperty() {
        runner.withUserConfiguration(Declared.class)
                .withPropertyValues("watchkeeper.watchers.cms.watch.metadata-only=true")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure())).hasMessage(
                            "Invalid value 'true' for property watchkeeper.watchers.cms.watch.metadata-only: 'cms' is"
                                    + " declared in code, whose type says what it caches; declare it with"
                                    + " ResourceType.metadataOnly() (or a PartialObjectMetadata class) instead");
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class Declared {

        @Bean
        WatcherDeclaration<V1ConfigMap> cms() {
            return WatcherDeclaration.of(V1ConfigMap.class).namespace("default");
        }
    }
}
