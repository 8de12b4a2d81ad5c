package dev.watchkeeper.test.controlplane;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a test class against the real control plane ({@link KubeControlPlane#shared()}): test methods and
 * lifecycle methods may take a {@link KubeControlPlane} and a {@link TestNamespace} (one new namespace per test
 * class, deleted after it). Without Go or the {@code controlplane/} folder the class is skipped with the reason,
 * or fails when {@code WATCHKEEPER_REQUIRE_CONTROL_PLANE=true}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(KubeControlPlaneExtension.class)
public @interface RealKubeApi {
}
