package dev.watchkeeper.test.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a {@code @SpringBootTest} against a fresh {@link dev.watchkeeper.test.apiserver.InMemoryApiServer}: the
 * server is a bean (started with the context, closed with it) to seed objects and inject faults, and a
 * {@link KubeApiConnection} bean reaches it, from which Watchkeeper's auto-configuration builds the application's
 * {@code ApiClient} (its {@code KubernetesConnectionDetails}), so every watcher and reconcile of the application
 * talks to the server. {@link AutoConfigureRealKubeApi} does the same with the real control plane.
 *
 * <pre>{@code
 * @SpringBootTest
 * @AutoConfigureInMemoryKubeApi
 * class GeneratorTest {
 *     @Autowired InMemoryApiServer server;
 *
 *     @Test
 *     void createsConfigMaps() {
 *         server.createCustomResourceDefinition("samples.watchkeeper.dev", "v1", "configmapgenerators",
 *                 "ConfigMapGenerator", true);
 *         server.create(generator("demo"));
 *         await().until(() -> server.get(V1ConfigMap.class, "default", "demo-0").isPresent());
 *     }
 * }
 * }</pre>
 *
 * <p>Test classes with this annotation and otherwise equal configuration share one cached context, and so one
 * server and its objects; add {@code @DirtiesContext} to a class that needs an empty server of its own.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface AutoConfigureInMemoryKubeApi {
}
