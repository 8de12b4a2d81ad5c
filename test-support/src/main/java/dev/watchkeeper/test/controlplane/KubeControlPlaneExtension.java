package dev.watchkeeper.test.controlplane;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.TestAbortedException;

import java.util.Locale;
import java.util.UUID;

/**
 * The extension behind {@link RealKubeApi}: starts (or reuses) the JVM's control plane before a test class,
 * creates the class's namespace, deletes it after the class, and resolves {@link KubeControlPlane} and
 * {@link TestNamespace} parameters.
 */
public final class KubeControlPlaneExtension implements ExecutionCondition, BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(KubeControlPlaneExtension.class);

    /** Skips the class, with the reason, when no control plane can be had (and it is not required). */
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        try {
            KubeControlPlane.shared();
            return ConditionEvaluationResult.enabled("a real control plane is running");
        } catch (TestAbortedException e) {
            return ConditionEvaluationResult.disabled(e.getMessage());
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        KubeControlPlane plane = KubeControlPlane.shared();
        String name = namespaceFor(context.getRequiredTestClass());
        try {
            new CoreV1Api(plane.apiClient()).createNamespace(
                    new V1Namespace().metadata(new V1ObjectMeta().name(name))).execute();
        } catch (ApiException e) {
            throw new IllegalStateException("cannot create namespace " + name + ": " + e.getCode() + " "
                    + e.getResponseBody(), e);
        }
        context.getStore(STORE).put(TestNamespace.class, new OwnedNamespace(plane, new TestNamespace(name)));
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == KubeControlPlane.class || type == TestNamespace.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        if (parameter.getParameter().getType() == KubeControlPlane.class) {
            return KubeControlPlane.shared();
        }
        OwnedNamespace owned = context.getStore(STORE).get(TestNamespace.class, OwnedNamespace.class);
        if (owned == null) {
            throw new IllegalStateException("TestNamespace is resolved only in @RealKubeApi test classes");
        }
        return owned.namespace();
    }

    private static String namespaceFor(Class<?> testClass) {
        String base = testClass.getSimpleName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        base = base.substring(0, Math.min(base.length(), 40));
        return base + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Deletes the namespace (the namespace controller then deletes what is in it) when the class's store closes. */
    private record OwnedNamespace(KubeControlPlane plane, TestNamespace namespace)
            implements AutoCloseable {

        @Override
        public void close() throws ApiException {
            new CoreV1Api(plane.apiClient()).deleteNamespace(namespace.name()).execute();
        }
    }
}
