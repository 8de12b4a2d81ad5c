package dev.watchkeeper.internal.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.reconcile.DefaultReconcileContext;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A reconcile's write the server refuses reads as one line naming the verb, the resource and the object, and what to
 * grant (one subclass per server: the in-memory one forbids, the real one's RBAC denies).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class WriteFailureScenarios {

    /** A client that may not write {@code configmaps} in {@link #namespace()}. */
    abstract ApiClient deniedClient();

    abstract String namespace();

    @Test
    void aForbiddenApplySaysWhatWasCalledAndWhatToGrant() {
        V1ConfigMap primary = new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace()).name("owner")
                .uid("uid-owner"));
        ReconcileContext context = new DefaultReconcileContext("writer", ObjectKey.of(primary), 1, deniedClient(),
                ResourceType.of(V1ConfigMap.class), primary, Map.of(), TimeSource.system());

        assertThatThrownBy(() -> context.apply(new V1ConfigMap()
                .metadata(new V1ObjectMeta().namespace(namespace()).name("denied")).data(Map.of("a", "b"))))
                .isInstanceOfSatisfying(FailedCall.class, failed -> {
                    assertThat(failed.getCode()).isEqualTo(403);
                    assertThat(ApiErrors.describe(failed))
                            .startsWith("patch configmaps/" + namespace() + "/denied: HTTP 403 Forbidden: ")
                            .endsWith(" — grant patch on configmaps")
                            .hasSizeLessThanOrEqualTo(ApiErrors.LIMIT);
                });
    }
}
