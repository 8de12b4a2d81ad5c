package dev.watchkeeper.annotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.registry.WatcherDeclaration;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The one {@code @Reconciler} parser: attributes, placeholders, watchers and the errors for a wrong method. */
class ReconcilerParserTest {

    private static final Map<String, String> PROPERTIES = Map.of("team", "team-a", "selector", "tier=web");

    /** Resolves {@code ${key}} from {@link #PROPERTIES} and leaves unknown ones as they are, as the environment does. */
    private static final UnaryOperator<String> RESOLVER = resolver(PROPERTIES);

    /** Resolves {@code ${key}} and {@code ${key:default}} from {@code properties}; unknown ones stay. */
    private static UnaryOperator<String> resolver(Map<String, String> properties) {
        return value -> {
            String resolved = value;
            for (Map.Entry<String, String> property : properties.entrySet()) {
                resolved = resolved.replace("${" + property.getKey() + "}", property.getValue())
                        .replace("${" + property.getKey() + ":}", property.getValue());
            }
            return resolved.replaceAll("\\$\\{[^}:]+:([^}]*)}", "$1");
        };
    }

    @Test
    void resolvesPlaceholdersAndDerivesTheWatchersAndTheDefaultName() {
        List<ParsedReconciler> parsed = ReconcilerParser.parse(Annotated.class, "annotated", RESOLVER);

        assertThat(parsed).hasSize(1);
        ParsedReconciler reconciler = parsed.get(0);
        assertThat(reconciler.name()).isEqualTo("annotated-reconcile");
        assertThat(reconciler.takesContext()).isTrue();
        assertThat(reconciler.primary().scope().namespace()).isEqualTo("team-a");
        assertThat(reconciler.primary().scope().labelSelector()).isEqualTo("tier=web");
        assertThat(reconciler.watchers()).extracting(WatcherDeclaration::effectiveName)
                .containsExactly(reconciler.primary().effectiveName(), "secrets@team-a");
        assertThat(reconciler.source()).isEqualTo("bean 'annotated' method Annotated.reconcile(V1ConfigMap, "
                + "ReconcileContext)");
    }

    @Test
    void theShardSelectorJoinsEveryPrimaryWatchersSelectorButNoSecondarys() {
        ParsedReconciler reconciler = ReconcilerParser.parse(Annotated.class, "annotated", resolver(Map.of(
                "team", "team-a", "selector", "tier=web", "watchkeeper.shard.label-selector", "shard=blue"))).get(0);

        assertThat(reconciler.primary().scope().labelSelector()).isEqualTo("tier=web,shard=blue");
        assertThat(reconciler.owned().get(0).scope().labelSelector()).isNull();
        assertThat(ReconcilerParser.parse(Unselected.class, "plain", resolver(Map.of(
                "watchkeeper.shard.label-selector", "shard=blue"))).get(0).primary().scope().labelSelector())
                .isEqualTo("shard=blue");
    }

    @Test
    void anUnresolvedPlaceholderNamesItAndTheMethod() {
        assertThatThrownBy(() -> ReconcilerParser.parse(Unresolved.class, "unresolved", RESOLVER))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Invalid @Reconciler method bean 'unresolved' method Unresolved.reconcile(V1ConfigMap): "
                        + "cannot resolve the placeholder in '${nowhere}'");
    }

    @Test
    void aWrongSecondParameterNamesTheMethod() {
        assertThatThrownBy(() -> ReconcilerParser.parse(WrongSecond.class, "wrong", RESOLVER))
                .hasMessage("Invalid @Reconciler method bean 'wrong' method WrongSecond.reconcile(V1ConfigMap, "
                        + "String): its second parameter may only be a ReconcileContext, but is java.lang.String");
    }

    @Test
    void debounceIsADurationFromTheAttributeOrItsPlaceholderAndAbsentWhenEmpty() {
        assertThat(ReconcilerParser.parse(Debounced.class, "debounced", resolver(Map.of("quiet", "1500ms")))
                .get(0).debounce()).isEqualTo(Duration.ofMillis(1500));
        assertThat(ReconcilerParser.parse(Annotated.class, "annotated", RESOLVER).get(0).debounce()).isNull();
    }

    @Test
    void aDebounceThatIsNoDurationNamesTheMethodAndTheForms() {
        assertThatThrownBy(() -> ReconcilerParser.parse(Debounced.class, "debounced",
                resolver(Map.of("quiet", "soon"))))
                .hasMessage("Invalid @Reconciler method bean 'debounced' method Debounced.reconcile(V1ConfigMap): "
                        + "debounce 'soon' is not a duration such as 500ms, 2s or PT2S");
        assertThatThrownBy(() -> ReconcilerParser.parse(Debounced.class, "debounced",
                resolver(Map.of("quiet", "-1s"))))
                .hasMessageEndingWith("debounce must not be negative, was -1s");
    }

    static class Debounced {
        @Reconciler(debounce = "${quiet}")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    static class Annotated {
        @Reconciler(namespace = "${team}", labelSelector = "${selector}", owns = V1Secret.class)
        void reconcile(V1ConfigMap configMap, ReconcileContext context) {
        }
    }

    static class Unselected {
        @Reconciler
        void reconcile(V1ConfigMap configMap) {
        }
    }

    static class Unresolved {
        @Reconciler(namespace = "${nowhere}")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    static class WrongSecond {
        @Reconciler
        void reconcile(V1ConfigMap configMap, String other) {
        }
    }
}
