package dev.watchkeeper.internal.annotation;

import dev.watchkeeper.annotation.Cleanup;
import dev.watchkeeper.annotation.Reconciler;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.watchkeeper.reconcile.ReconcileContext;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** {@code @Reconciler(finalizer = …)} and its {@code @Cleanup} method, as the one parser pairs and checks them. */
class FinalizerParserTest {

    /** Resolves {@code ${app.finalizer}}, and {@code ${key:default}} to its default, as the environment does. */
    private static final UnaryOperator<String> RESOLVER = value -> value.replace("${app.finalizer}", "example.com/x")
            .replaceAll("\\$\\{[^}:]+:([^}]*)}", "$1");

    private static List<ParsedReconciler> parse(Class<?> type, String beanName) {
        return ReconcilerParser.parse(type, beanName, RESOLVER, NamespaceOverrides.none());
    }

    @Test
    void pairsTheCleanupMethodWithTheReconcilersResolvedFinalizer() throws Exception {
        ParsedReconciler parsed = parse(WithCleanup.class, "bean").get(0);

        assertThat(parsed.finalization()).isEqualTo(new ParsedReconciler.Finalization("example.com/x",
                WithCleanup.class.getDeclaredMethod("cleanup", V1ConfigMap.class), false));
    }

    @Test
    void aReconcilerWithoutFinalizerHasNoFinalization() {
        assertThat(parse(Plain.class, "plain").get(0).finalization()).isNull();
    }

    @Test
    void severalFinalizersAreTiedByReconcilerName() {
        List<ParsedReconciler> parsed = parse(TwoFinalizers.class, "two");

        assertThat(parsed).extracting(p -> p.name() + " " + p.finalization().method().getName()
                + " " + p.finalization().takesContext()).containsExactlyInAnyOrder("first cleanFirst true",
                "second cleanSecond false");
    }

    @Test
    void aFinalizerWithoutCleanupFailsStartUpNamingTheMethod() {
        assertThatThrownBy(() -> parse(NoCleanup.class, "bean"))
                .hasMessage("Invalid @Reconciler method bean 'bean' method NoCleanup.reconcile(V1ConfigMap): it"
                        + " declares the finalizer example.com/x but the bean has no @Cleanup method to run before"
                        + " removing it");
    }

    @Test
    void aCleanupWithoutFinalizerFailsStartUp() {
        assertThatThrownBy(() -> parse(CleanupOnly.class, "bean"))
                .hasMessage("Invalid @Cleanup method bean 'bean' method CleanupOnly.cleanup(V1ConfigMap): the bean"
                        + " has no @Reconciler method with a finalizer");
    }

    @Test
    void anUnnamedCleanupAmongSeveralFinalizersFailsStartUp() {
        assertThatThrownBy(() -> parse(Ambiguous.class, "bean"))
                .hasMessageStartingWith("Invalid @Cleanup method bean 'bean' method Ambiguous.cleanup(V1ConfigMap):"
                        + " the bean has several @Reconciler methods with a finalizer");
    }

    @Test
    void aCleanupOfAnotherTypeFailsStartUp() {
        assertThatThrownBy(() -> parse(WrongType.class, "bean"))
                .hasMessage("Invalid @Cleanup method bean 'bean' method WrongType.cleanup(V1Secret): it must take"
                        + " the primary object (V1ConfigMap) and optionally a ReconcileContext");
    }

    static class WithCleanup {
        @Reconciler(finalizer = "${app.finalizer}")
        void reconcile(V1ConfigMap configMap) {
        }

        @Cleanup
        void cleanup(V1ConfigMap configMap) {
        }
    }

    static class Plain {
        @Reconciler
        void reconcile(V1ConfigMap configMap) {
        }
    }

    static class TwoFinalizers {
        @Reconciler(name = "first", finalizer = "example.com/first")
        void first(V1ConfigMap configMap) {
        }

        @Reconciler(name = "second", finalizer = "example.com/second")
        void second(V1Secret secret) {
        }

        @Cleanup("first")
        void cleanFirst(V1ConfigMap configMap, ReconcileContext context) {
        }

        @Cleanup("second")
        void cleanSecond(V1Secret secret) {
        }
    }

    static class NoCleanup {
        @Reconciler(finalizer = "${app.finalizer}")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    static class CleanupOnly {
        @Reconciler
        void reconcile(V1ConfigMap configMap) {
        }

        @Cleanup
        void cleanup(V1ConfigMap configMap) {
        }
    }

    static class Ambiguous {
        @Reconciler(name = "first", finalizer = "example.com/first")
        void first(V1ConfigMap configMap) {
        }

        @Reconciler(name = "second", finalizer = "example.com/second")
        void second(V1ConfigMap configMap) {
        }

        @Cleanup
        void cleanup(V1ConfigMap configMap) {
        }
    }

    static class WrongType {
        @Reconciler(finalizer = "example.com/x")
        void reconcile(V1ConfigMap configMap) {
        }

        @Cleanup
        void cleanup(V1Secret secret) {
        }
    }
}
