package dev.watchkeeper.test.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.test.context.ContextCustomizerFactory;

class KubeApiContextCustomizerFactoryTest {

    final KubeApiContextCustomizerFactory factory = new KubeApiContextCustomizerFactory();

    @Test
    void isRegisteredWithSpringTest() {
        assertThat(SpringFactoriesLoader.loadFactories(ContextCustomizerFactory.class, null))
                .hasAtLeastOneElementOfType(KubeApiContextCustomizerFactory.class);
    }

    @Test
    void customizesNothingWithoutAnAnnotation() {
        assertThat(factory.createContextCustomizer(Plain.class, List.of())).isNull();
    }

    @Test
    void findsTheAnnotationsAlsoAsMetaAnnotations() {
        assertThat(factory.createContextCustomizer(ViaMeta.class, List.of()))
                .isEqualTo(KubeApiContextCustomizer.inMemoryServer());
        assertThat(factory.createContextCustomizer(Stubbed.class, List.of()))
                .isEqualTo(KubeApiContextCustomizer.stub())
                .isNotEqualTo(KubeApiContextCustomizer.inMemoryServer());
    }

    @Test
    void equalAnnotationsGiveEqualCustomizers_soContextsAreCached() {
        assertThat(factory.createContextCustomizer(ViaMeta.class, List.of()))
                .isEqualTo(factory.createContextCustomizer(Direct.class, List.of()))
                .hasSameHashCodeAs(factory.createContextCustomizer(Direct.class, List.of()));
    }

    @Test
    void refusesBothAnnotationsOnOneClass() {
        assertThatIllegalStateException().isThrownBy(() -> factory.createContextCustomizer(Both.class, List.of()))
                .withMessageContaining("choose one");
    }

    @Retention(RetentionPolicy.RUNTIME)
    @AutoConfigureInMemoryKubeApi
    @interface MyKubeTest {
    }

    static class Plain {
    }

    @MyKubeTest
    static class ViaMeta {
    }

    @AutoConfigureInMemoryKubeApi
    static class Direct {
    }

    @AutoConfigureKubeApiStub
    static class Stubbed {
    }

    @AutoConfigureInMemoryKubeApi
    @AutoConfigureKubeApiStub
    static class Both {
    }
}
