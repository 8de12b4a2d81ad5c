package dev.watchkeeper.internal.annotation;

import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.Reconciler;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.internal.registry.WatcherSpec;
import dev.watchkeeper.resource.PartialObjectMetadata;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.springframework.watchkeeperfixture.SpringPackageReconcilers;

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

    private static List<ParsedReconciler> parse(Class<?> type, String beanName, UnaryOperator<String> resolver) {
        return ReconcilerParser.parse(type, beanName, resolver, NamespaceOverrides.none());
    }

    @Test
    void resolvesPlaceholdersAndDerivesTheWatchersAndTheDefaultName() {
        List<ParsedReconciler> parsed = parse(Annotated.class, "annotated", RESOLVER);

        assertThat(parsed).hasSize(1);
        ParsedReconciler reconciler = parsed.get(0);
        assertThat(reconciler.name()).isEqualTo("annotated-reconcile");
        assertThat(reconciler.takesContext()).isTrue();
        assertThat(reconciler.primary().scope().namespace()).isEqualTo("team-a");
        assertThat(reconciler.primary().scope().labelSelector()).isEqualTo("tier=web");
        assertThat(reconciler.watchers()).extracting(WatcherSpec::effectiveName)
                .containsExactly(reconciler.primary().effectiveName(), "secrets@team-a");
        assertThat(reconciler.source()).isEqualTo("bean 'annotated' method Annotated.reconcile(V1ConfigMap, "
                + "ReconcileContext)");
    }

    @Test
    void theShardSelectorJoinsEveryPrimaryWatchersSelectorButNoSecondarys() {
        ParsedReconciler reconciler = parse(Annotated.class, "annotated", resolver(Map.of(
                "team", "team-a", "selector", "tier=web", "watchkeeper.shard.label-selector", "shard=blue"))).get(0);

        assertThat(reconciler.primary().scope().labelSelector()).isEqualTo("tier=web,shard=blue");
        assertThat(reconciler.owned().get(0).scope().labelSelector()).isNull();
        assertThat(parse(Unselected.class, "plain", resolver(Map.of(
                "watchkeeper.shard.label-selector", "shard=blue"))).get(0).primary().scope().labelSelector())
                .isEqualTo("shard=blue");
    }

    @Test
    void springsOwnClassesAreNotWalked() {
        assertThat(parse(SpringPackageReconcilers.class, "inSpringPackage", RESOLVER)).isEmpty();
        assertThat(parse(Unselected.class, "plain", RESOLVER)).hasSize(1);
    }

    @Test
    void anUnresolvedPlaceholderNamesItAndTheMethod() {
        assertThatThrownBy(() -> parse(Unresolved.class, "unresolved", RESOLVER))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Invalid @Reconciler method bean 'unresolved' method Unresolved.reconcile(V1ConfigMap): "
                        + "cannot resolve the placeholder in '${nowhere}'");
    }

    @Test
    void aWrongSecondParameterNamesTheMethod() {
        assertThatThrownBy(() -> parse(WrongSecond.class, "wrong", RESOLVER))
                .hasMessage("Invalid @Reconciler method bean 'wrong' method WrongSecond.reconcile(V1ConfigMap, "
                        + "String): its second parameter may only be a ReconcileContext, but is java.lang.String");
    }

    @Test
    void debounceIsADurationFromTheAttributeOrItsPlaceholderAndAbsentWhenEmpty() {
        assertThat(parse(Debounced.class, "debounced", resolver(Map.of("quiet", "1500ms")))
                .get(0).debounce()).isEqualTo(Duration.ofMillis(1500));
        assertThat(parse(Annotated.class, "annotated", RESOLVER).get(0).debounce()).isNull();
    }

    @Test
    void aDebounceThatIsNoDurationNamesTheMethodAndTheForms() {
        assertThatThrownBy(() -> parse(Debounced.class, "debounced",
                resolver(Map.of("quiet", "soon"))))
                .hasMessage("Invalid @Reconciler method bean 'debounced' method Debounced.reconcile(V1ConfigMap): "
                        + "debounce 'soon' is not a duration such as 500ms, 2s or PT2S");
        assertThatThrownBy(() -> parse(Debounced.class, "debounced",
                resolver(Map.of("quiet", "-1s"))))
                .hasMessageEndingWith("debounce must not be negative, was -1s");
    }

    static class Debounced {
        @Reconciler(debounce = "${quiet}")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    @Test
    void timeoutIsADurationFromTheAttributeOrItsPlaceholderAndAbsentWhenEmpty() {
        assertThat(parse(TimedOut.class, "timed", resolver(Map.of("bound", "30s"))).get(0).timeout())
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(parse(Annotated.class, "annotated", RESOLVER).get(0).timeout()).isNull();
        assertThatThrownBy(() -> parse(TimedOut.class, "timed", resolver(Map.of("bound", "later"))))
                .hasMessage("Invalid @Reconciler method bean 'timed' method TimedOut.reconcile(V1ConfigMap): "
                        + "timeout 'later' is not a duration such as 500ms, 2s or PT2S");
    }

    static class TimedOut {
        @Reconciler(timeout = "${bound}")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    @Test
    void aNamespaceSetIsOneWatcherPerNamespaceForThePrimaryAndEachSecondary() {
        ParsedReconciler reconciler = parse(InTeams.class, "teams", resolver(Map.of("more", "team-b,team-c")))
                .get(0);

        assertThat(reconciler.namespaces()).containsExactly("team-a", "team-b", "team-c");
        assertThat(reconciler.primary().scope().namespace()).isNull();
        assertThat(reconciler.watchers()).extracting(WatcherSpec::effectiveName).containsExactly(
                "configmaps@team-a-" + selectorHash("tier=web"), "configmaps@team-b-" + selectorHash("tier=web"),
                "configmaps@team-c-" + selectorHash("tier=web"), "secrets@team-a", "secrets@team-b",
                "secrets@team-c");
        assertThat(reconciler.watchers()).allSatisfy(watcher -> assertThat(watcher.scope().namespace()).isNotNull());
        assertThat(reconciler.primary().groupName(reconciler.namespaces()))
                .isEqualTo("configmaps@team-a+team-b+team-c-" + selectorHash("tier=web"));
    }

    @Test
    void configuredNamespacesReplaceTheAnnotationsAndOneIsJustThatNamespace() {
        NamespaceOverrides two = (name, annotated) -> name.equals("annotated-reconcile") ? List.of("x", "y")
                : annotated.get();
        ParsedReconciler set = ReconcilerParser.parse(Annotated.class, "annotated", RESOLVER, two).get(0);
        assertThat(set.namespaces()).containsExactly("x", "y");
        assertThat(set.watchers()).extracting(watcher -> watcher.scope().namespace())
                .containsExactly("x", "y", "x", "y");

        ParsedReconciler one = ReconcilerParser.parse(InTeams.class, "teams", RESOLVER,
                (name, annotated) -> List.of("x")).get(0);
        assertThat(one.namespaces()).isEmpty();
        assertThat(one.primary().scope().namespace()).isEqualTo("x");
        assertThat(one.watchers()).extracting(watcher -> watcher.scope().namespace()).containsExactly("x", "x");
    }

    @Test
    void replacedNamespaceAttributesAreNotRead() {
        ParsedReconciler replaced = ReconcilerParser.parse(Both.class, "both", RESOLVER,
                (name, annotated) -> List.of("x")).get(0);

        assertThat(replaced.primary().scope().namespace()).isEqualTo("x");
    }

    @Test
    void namespaceAndNamespacesTogetherOrTwiceTheSameNameTheMethod() {
        assertThatThrownBy(() -> parse(Both.class, "both", RESOLVER))
                .hasMessage("Invalid @Reconciler method bean 'both' method Both.reconcile(V1ConfigMap): set either"
                        + " namespace or namespaces, not both");
        assertThatThrownBy(() -> parse(InTeams.class, "teams", resolver(Map.of("more", "team-a"))))
                .hasMessage("Invalid @Reconciler method bean 'teams' method InTeams.reconcile(V1ConfigMap): namespaces"
                        + " lists 'team-a' twice");
    }

    @Test
    void aPartialObjectMetadataClassIsAMetadataOnlyWatcherOfItsResource() {
        ParsedReconciler reconciler = parse(OwnsSecretNames.class, "names", RESOLVER).get(0);

        WatcherSpec<?> owned = reconciler.owned().get(0);
        assertThat(owned.type().isMetadataOnly()).isTrue();
        assertThat(owned.type().apiVersion() + "/" + owned.type().plural()).isEqualTo("v1/secrets");
        assertThat(owned.effectiveName()).isEqualTo("secrets-metadata@all");
        assertThat(reconciler.primary().type().isMetadataOnly()).isFalse();
    }

    @Test
    void aTypeOwnedWhenServedIsASecondaryOfItsOwnKindWatchedInTheReconcilersNamespace() {
        ParsedReconciler reconciler = parse(OwnsWhenServed.class, "gadgets", RESOLVER).get(0);

        assertThat(reconciler.owned()).extracting(WatcherSpec::effectiveName).containsExactly("secrets@team-a");
        assertThat(reconciler.ownedWhenServed()).extracting(WatcherSpec::effectiveName)
                .containsExactly("widgets.test.watchkeeper.dev@team-a");
        assertThat(reconciler.watchers()).hasSize(3);
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "widgets")
    static class Widget implements io.kubernetes.client.common.KubernetesObject {
        @Override
        public io.kubernetes.client.openapi.models.V1ObjectMeta getMetadata() {
            return null;
        }

        @Override
        public String getApiVersion() {
            return "test.watchkeeper.dev/v1";
        }

        @Override
        public String getKind() {
            return "Widget";
        }
    }

    static class OwnsWhenServed {
        @Reconciler(namespace = "${team}", owns = V1Secret.class, ownsWhenServed = Widget.class)
        void reconcile(V1ConfigMap object) {
        }
    }

    /** The hash {@code WatchScope.derivedWatcherName} appends for a label selector alone. */
    private static String selectorHash(String labelSelector) {
        return Integer.toHexString((labelSelector + "|").hashCode() & 0xfffff);
    }

    @KubernetesResource(group = "", version = "v1", plural = "secrets")
    static class SecretNames extends PartialObjectMetadata {
    }

    static class OwnsSecretNames {
        @Reconciler(owns = SecretNames.class)
        void reconcile(V1ConfigMap configMap) {
        }
    }

    static class InTeams {
        @Reconciler(namespaces = {"team-a", "${more}"}, labelSelector = "tier=web", owns = V1Secret.class)
        void reconcile(V1ConfigMap configMap) {
        }
    }

    static class Both {
        @Reconciler(namespace = "team-a", namespaces = "team-b")
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
