/**
 * Spring Boot test support: {@link dev.watchkeeper.test.boot.AutoConfigureInMemoryKubeApi} runs a
 * {@code @SpringBootTest} against a stateful in-memory API server,
 * {@link dev.watchkeeper.test.boot.AutoConfigureRealKubeApi} against the real control plane,
 * {@link dev.watchkeeper.test.boot.AutoConfigureKubeApiStub} against the scripted stub (scripted by
 * {@link dev.watchkeeper.test.boot.KubeApiStubCustomizer} beans). All are applied by
 * {@link dev.watchkeeper.test.boot.KubeApiContextCustomizerFactory}, registered in {@code META-INF/spring.factories};
 * each adds the server as a bean and what reaches it: a {@link dev.watchkeeper.test.boot.KubeApiConnection}, which
 * Watchkeeper's auto-configuration turns into the connection details it builds its client from, or for the stub a
 * primary {@code ApiClient} of its own, which wins over Watchkeeper's {@code @ConditionalOnMissingBean} client.
 */
package dev.watchkeeper.test.boot;
