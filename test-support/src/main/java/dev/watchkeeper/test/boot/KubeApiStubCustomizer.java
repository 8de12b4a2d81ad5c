package dev.watchkeeper.test.boot;

import dev.watchkeeper.test.stub.KubeApiStub;

/**
 * Scripts the {@link KubeApiStub} of an {@link AutoConfigureKubeApiStub @AutoConfigureKubeApiStub} test after it
 * started and before the application's {@code ApiClient} (and so any watcher) can reach it. Every bean of this
 * type runs once, in {@code @Order}, when the context creates the stub.
 *
 * <pre>{@code
 * @Bean
 * KubeApiStubCustomizer twoConfigMaps() {
 *     return stub -> stub.on("/api/v1/namespaces/default/configmaps")
 *             .list(page(cm("a"), cm("b")).resourceVersion("3"))
 *             .watch(events(added(cm("c", "4"))).thenStayOpen());
 * }
 * }</pre>
 */
@FunctionalInterface
public interface KubeApiStubCustomizer {

    void customize(KubeApiStub stub);
}
