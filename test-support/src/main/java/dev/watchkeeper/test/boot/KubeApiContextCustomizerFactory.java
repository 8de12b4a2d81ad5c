package dev.watchkeeper.test.boot;

import java.lang.annotation.Annotation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Turns {@link AutoConfigureInMemoryKubeApi}, {@link AutoConfigureKubeApiStub} or {@link AutoConfigureRealKubeApi}
 * on a test class (directly, on an enclosing class or as a meta-annotation) into the beans they promise. Registered in
 * {@code META-INF/spring.factories}, so it needs no {@code @Import} and works with any Spring test context.
 */
public class KubeApiContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        Map<Class<? extends Annotation>, Supplier<KubeApiContextCustomizer<?>>> servers = new LinkedHashMap<>();
        servers.put(AutoConfigureInMemoryKubeApi.class, KubeApiContextCustomizer::inMemoryServer);
        servers.put(AutoConfigureKubeApiStub.class, KubeApiContextCustomizer::stub);
        servers.put(AutoConfigureRealKubeApi.class, KubeApiContextCustomizer::controlPlane);
        List<Class<? extends Annotation>> present = servers.keySet().stream()
                .filter(annotation -> TestContextAnnotationUtils.hasAnnotation(testClass, annotation)).toList();
        if (present.size() > 1) {
            throw new IllegalStateException(testClass.getName() + " has " + present.stream()
                    .map(annotation -> "@" + annotation.getSimpleName()).collect(Collectors.joining(" and "))
                    + "; the application has one API server, so choose one");
        }
        return present.isEmpty() ? null : servers.get(present.get(0)).get();
    }
}
