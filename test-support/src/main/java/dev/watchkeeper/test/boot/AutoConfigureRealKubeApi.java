package dev.watchkeeper.test.boot;

import dev.watchkeeper.test.controlplane.RealKubeApi;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a {@code @SpringBootTest} against the real control plane ({@link RealKubeApi @RealKubeApi}: started once per
 * JVM, the class skipped with the reason where it cannot be had): the {@link
 * dev.watchkeeper.test.controlplane.KubeControlPlane} is a bean, and the application connects to it with admin
 * rights through a {@link KubeApiConnection}, with no kubeconfig file or property of its own. Test methods may take
 * the class's {@link dev.watchkeeper.test.controlplane.TestNamespace}.
 *
 * <pre>{@code
 * @SpringBootTest
 * @AutoConfigureRealKubeApi
 * class GeneratorOnControlPlaneTest {
 *     @Test
 *     void createsConfigMaps(KubeControlPlane plane, TestNamespace namespace) { ... }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@RealKubeApi
public @interface AutoConfigureRealKubeApi {
}
