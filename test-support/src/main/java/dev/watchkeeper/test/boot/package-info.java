/**
 * Spring Boot test support: {@link dev.watchkeeper.test.boot.AutoConfigureInMemoryKubeApi} runs a
 * {@code @SpringBootTest} against a stateful in-memory API server, {@link dev.watchkeeper.test.boot.AutoConfigureKubeApiStub}
 * against the scripted stub (scripted by {@link dev.watchkeeper.test.boot.KubeApiStubCustomizer} beans). Both are
 * applied by {@link dev.watchkeeper.test.boot.KubeApiContextCustomizerFactory}, registered in
 * {@code META-INF/spring.factories}; each adds the server or stub as a bean and a primary {@code ApiClient} bean
 * pointing at it, which wins over Watchkeeper's {@code @ConditionalOnMissingBean} client.
 */
package dev.watchkeeper.test.boot;
