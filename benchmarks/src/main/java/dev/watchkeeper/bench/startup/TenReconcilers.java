package dev.watchkeeper.bench.startup;

import dev.watchkeeper.annotation.Reconciler;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.springframework.stereotype.Component;

/**
 * Ten {@code @Reconciler} beans with no-op reconcile methods, each on the ConfigMaps of its own namespace
 * ({@code startup-0} … {@code startup-9}): ten scopes, so the registry shares none of their watchers.
 */
final class TenReconcilers {

    /** How many there are; the namespaces are {@code NAMESPACE_PREFIX + 0 … COUNT - 1}. */
    static final int COUNT = 10;

    /** Namespace prefix of the watched ConfigMaps. */
    static final String NAMESPACE_PREFIX = "startup-";

    private TenReconcilers() {
    }

    @Component
    static class Reconciler0 {
        @Reconciler(name = "reconciler-0", namespace = NAMESPACE_PREFIX + "0")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    @Component
    static class Reconciler1 {
        @Reconciler(name = "reconciler-1", namespace = NAMESPACE_PREFIX + "1")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    @Component
    static class Reconciler2 {
        @Reconciler(name = "reconciler-2", namespace = NAMESPACE_PREFIX + "2")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    @Component
    static class Reconciler3 {
        @Reconciler(name = "reconciler-3", namespace = NAMESPACE_PREFIX + "3")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    @Component
    static class Reconciler4 {
        @Reconciler(name = "reconciler-4", namespace = NAMESPACE_PREFIX + "4")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    @Component
    static class Reconciler5 {
        @Reconciler(name = "reconciler-5", namespace = NAMESPACE_PREFIX + "5")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    @Component
    static class Reconciler6 {
        @Reconciler(name = "reconciler-6", namespace = NAMESPACE_PREFIX + "6")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    @Component
    static class Reconciler7 {
        @Reconciler(name = "reconciler-7", namespace = NAMESPACE_PREFIX + "7")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    @Component
    static class Reconciler8 {
        @Reconciler(name = "reconciler-8", namespace = NAMESPACE_PREFIX + "8")
        void reconcile(V1ConfigMap configMap) {
        }
    }

    @Component
    static class Reconciler9 {
        @Reconciler(name = "reconciler-9", namespace = NAMESPACE_PREFIX + "9")
        void reconcile(V1ConfigMap configMap) {
        }
    }
}
