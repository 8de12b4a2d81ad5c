package dev.watchkeeper.internal.annotation;

import dev.watchkeeper.annotation.Reconciler;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Each bean's {@code @Reconciler} methods parsed once: by the registrar, then taken by the post-processor. */
class ParsedReconcilersTest {

    private final AtomicInteger resolved = new AtomicInteger();
    private final UnaryOperator<String> resolver = value -> {
        resolved.incrementAndGet();
        return value.replace("${name}", "mirror").replaceAll("\\$\\{[^}:]+:([^}]*)}", "$1"); // defaults
    };
    private final ParsedReconcilers reconcilers = new ParsedReconcilers(resolver, NamespaceOverrides.none());

    @Test
    void thePostProcessorTakesWhatTheRegistrarParsedWithoutParsingAgain() {
        List<ParsedReconciler> early = reconcilers.parse("mirrors", Mirrors.class);
        int resolvedEarly = resolved.get();

        List<ParsedReconciler> taken = reconcilers.take("mirrors", Mirrors.class);

        assertThat(early).singleElement().extracting(ParsedReconciler::name).isEqualTo("mirror");
        assertThat(taken).isSameAs(early);
        assertThat(resolved).hasValue(resolvedEarly);
    }

    @Test
    void anotherClassThanTheDefinitionSaidOrAnotherInstanceIsParsedAgain() {
        List<ParsedReconciler> early = reconcilers.parse("mirrors", Object.class);

        List<ParsedReconciler> actual = reconcilers.take("mirrors", Mirrors.class);
        List<ParsedReconciler> prototype = reconcilers.take("mirrors", Mirrors.class);

        assertThat(early).isEmpty();
        assertThat(actual).singleElement().extracting(ParsedReconciler::name).isEqualTo("mirror");
        assertThat(prototype).isNotSameAs(actual).isEqualTo(actual);
    }

    @Test
    void aBeanTheRegistrarDidNotSeeIsParsedWhenTaken() {
        assertThat(reconcilers.take("late", Mirrors.class)).singleElement().extracting(ParsedReconciler::name)
                .isEqualTo("mirror");
        assertThat(resolved).hasPositiveValue();
    }

    static class Mirrors {
        @Reconciler(name = "${name}")
        void reconcile(V1ConfigMap configMap) {
        }
    }
}
