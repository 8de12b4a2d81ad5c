package dev.watchkeeper.test.boot;

import java.util.List;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Turns {@link AutoConfigureInMemoryKubeApi} and {@link AutoConfigureKubeApiStub} on a test class (directly, on an
 * enclosing class or as a meta-annotation) into the beans they promise. Registered in
 * {@code META-INF/spring.factories}, so it needs no {@code @Import} and works with any Spring test context.
 */
public class KubeApiContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        boolean inMemory = TestContextAnnotationUtils.hasAnnotation(testClass, AutoConfigureInMemoryKubeApi.class);
        boolean stub = TestContextAnnotationUtils.hasAnnotation(testClass, AutoConfigureKubeApiStub.class);
        if (inMemory && stub) {
            throw new IllegalStateException(testClass.getName() + " has both @AutoConfigureInMemoryKubeApi and"
                    + " @AutoConfigureKubeApiStub; the application has one ApiClient, so choose one");
        }
        if (inMemory) {
            return new InMemoryKubeApiContextCustomizer();
        }
        return stub ? new KubeApiStubContextCustomizer() : null;
    }
}
