package dev.watchkeeper.internal.reconcile;

import static dev.watchkeeper.reconcile.Conditions.READY;
import static dev.watchkeeper.reconcile.Conditions.RECONCILING;
import static dev.watchkeeper.reconcile.Conditions.STALLED;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.watchkeeper.internal.api.ApiErrors;
import dev.watchkeeper.reconcile.Conditions;
import dev.watchkeeper.reconcile.TerminalReconcileException;
import dev.watchkeeper.internal.resource.BuiltInResources;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.store.ObjectKey;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import okhttp3.Call;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The conditions a reconciler writes on its object after each reconcile, with kstatus' meanings
 * (docs/semantics.md, "Status conditions"): after a success {@code Ready=True} and neither {@code Reconciling} nor
 * {@code Stalled}, leaving alone each of the three that the reconcile set or removed itself through
 * {@code updateConditions}; after an error that is retried {@code Reconciling=True} and {@code Ready=False}, with the
 * error in one line; after a {@link TerminalReconcileException} {@code Stalled=True} and {@code Ready=False}, with its
 * message. The generation written is the one of the object the reconcile was handed.
 *
 * <p>Only where a status can hold them, so that nothing is written that would be wrong or refused: custom
 * resources only (a built-in object's status belongs to its built-in controller, and kstatus judges built-in kinds
 * by rules of their own); only when the object's class holds a {@code status.conditions} list (a dynamic object
 * does); and only when the API server serves a {@code status} subresource for the resource (asked once, from
 * discovery). Where one of these fails, the reconciler writes none and says why once, at INFO. Writes go through
 * the conflict-safe status update, so nothing is written when nothing changed and the write's own watch event
 * does not wake the reconciler.
 */
final class ReconcileConditions {

    private static final String SUCCEEDED = "Succeeded";
    private static final String RECONCILE_ERROR = "ReconcileError";
    private static final String TERMINAL_ERROR = "TerminalError";
    private static final String SUCCEEDED_MESSAGE = "the last reconcile succeeded";

    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

    private final String name;
    private final ResourceType<?> type;
    private final ApiClient client;
    /** {@code null} when off: disabled, a built-in resource, or no API client. */
    private final ObjectWrites writes;
    private final Clock clock;
    private final AtomicBoolean explained = new AtomicBoolean();
    /** Whether the server serves {@code <plural>/status}; {@code null} until discovery answered. */
    private volatile Boolean statusSubresource;

    ReconcileConditions(ReconcileScope<?> scope, boolean enabled) {
        this.name = scope.name();
        this.type = scope.primary().type();
        this.client = scope.apiClient();
        boolean custom = !type.isMetadataOnly() && !BuiltInResources.mayBeBuiltIn(type.group());
        this.writes = enabled && custom && client != null
                ? scope.writes() : null;
        this.clock = scope.time().clock();
    }

    /**
     * After a successful reconcile of {@code handed}: {@code Ready=True}, {@code Reconciling} and {@code Stalled}
     * removed, each unless in {@code touched}. A failed write fails the reconcile, so it is retried: the conditions
     * must not go on claiming an outcome they do not show. An object deleted meanwhile (404) has nothing to show.
     *
     * @param latest the newest copy of the object the reconcile knows (its own writes), to write over
     */
    void succeeded(KubernetesObject handed, KubernetesObject latest, Set<String> touched)
            throws ApiException, InterruptedException {
        if (!appliesTo(latest)) {
            return;
        }
        try {
            write(handed, latest, conditions -> succeeded(conditions, touched));
        } catch (ApiException e) {
            if (e.getCode() != 404) {
                throw e;
            }
            log.debug("reconciler {}: {} is gone; no conditions written", name, ObjectKey.of(handed));
        }
    }

    /** A success's conditions, leaving those the reconcile set or removed itself. */
    private static void succeeded(Conditions conditions, Set<String> touched) {
        if (!touched.contains(READY)) {
            conditions.set(READY, true, SUCCEEDED, SUCCEEDED_MESSAGE);
        }
        if (!touched.contains(RECONCILING)) {
            conditions.remove(RECONCILING);
        }
        if (!touched.contains(STALLED)) {
            conditions.remove(STALLED);
        }
    }

    /**
     * After a failed reconcile of {@code handed}: {@code Stalled=True} for a terminal error, else
     * {@code Reconciling=True}; {@code Ready=False} with the same reason and message. A failed write is logged: the
     * key is retried (or waits for a change) anyway. A failure that carries the server's {@code Retry-After} writes
     * none: the server asked for a pause, and the retry after it writes the outcome.
     *
     * @return the resourceVersion of the object after the write, so a terminal failure waits for a change by someone
     *         else, not for this write; {@code version} when nothing was written
     */
    String failed(KubernetesObject handed, KubernetesObject latest, Throwable thrown,
            TerminalReconcileException terminal, String version) {
        try {
            if (ApiErrors.retryAfter(thrown) != null) {
                log.debug("reconciler {}: the failure of {} asked for a pause (Retry-After); its conditions are written"
                        + " after the retry", name, ObjectKey.of(handed));
                return version;
            }
            if (!appliesTo(latest)) {
                return version;
            }
            String reason = terminal != null ? TERMINAL_ERROR : RECONCILE_ERROR;
            String message = terminal != null && terminal.getMessage() != null ? terminal.getMessage()
                    : ApiErrors.describe(thrown);
            KubernetesObject stored = write(handed, latest, conditions -> {
                conditions.set(terminal != null ? STALLED : RECONCILING, true, reason, message)
                        .remove(terminal != null ? RECONCILING : STALLED)
                        .set(READY, false, reason, message);
            });
            return stored.getMetadata() == null ? version : stored.getMetadata().getResourceVersion();
        } catch (ApiException e) {
            if (e.getCode() == 404) {
                log.debug("reconciler {}: {} is gone; no conditions written", name, ObjectKey.of(handed));
            } else {
                log.warn("reconciler {}: could not write the conditions of {} after its failure: {}", name,
                        ObjectKey.of(handed), ApiErrors.describe(e));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.debug("reconciler {}: interrupted writing the conditions of {}", name, ObjectKey.of(handed));
        } catch (RuntimeException e) {
            log.warn("reconciler {}: could not write the conditions of {} after its failure", name,
                    ObjectKey.of(handed), e);
        }
        return version;
    }

    private KubernetesObject write(KubernetesObject handed, KubernetesObject latest, Consumer<Conditions> edit)
            throws ApiException, InterruptedException {
        Long generation = handed.getMetadata() == null ? null : handed.getMetadata().getGeneration();
        return writes.rewriteStatus(latest,
                json -> StatusConditions.edited(json, latest, generation, clock, edit, new HashSet<>()));
    }

    private boolean appliesTo(KubernetesObject object) {
        if (writes == null) {
            return false;
        }
        if (!StatusConditions.shapeOf(object).conditions()) {
            explain(object.getClass().getName() + " has no status.conditions list");
            return false;
        }
        Boolean served = statusSubresource;
        if (served == null) {
            try {
                served = servesStatus();
            } catch (ApiException e) { // asked again after the next reconcile
                log.warn("reconciler {}: could not learn whether the API server serves {} with a status subresource,"
                        + " so no conditions were written this time: {}", name, type, ApiErrors.describe(e));
                return false;
            }
            statusSubresource = served;
            if (!served) {
                explain("the API server serves no status subresource for " + type);
            }
        }
        return served;
    }

    private void explain(String why) {
        if (explained.compareAndSet(false, true)) {
            log.info("reconciler {}: {}, so it writes no status conditions on its objects", name, why);
        }
    }

    /** Whether discovery of the resource's group version lists {@code <plural>/status}. */
    private boolean servesStatus() throws ApiException {
        String path = "/apis/" + type.group() + "/" + type.version();
        Map<String, String> headers = new HashMap<>(); // the client adds its authentication to it
        headers.put("Accept", "application/json");
        Call call = client.buildCall(null, path, "GET", List.of(), List.of(), null, headers, new HashMap<>(),
                new HashMap<>(), new String[] {"BearerToken"}, null);
        JsonElement list = client.<JsonElement>execute(call, JsonElement.class).getData();
        String plural = type.plural();
        Set<String> names = new HashSet<>();
        if (list != null && list.isJsonObject() && list.getAsJsonObject().has("resources")) {
            for (JsonElement resource : list.getAsJsonObject().getAsJsonArray("resources")) {
                JsonObject entry = resource.getAsJsonObject();
                String resourceName = entry.get("name").getAsString();
                names.add(resourceName);
                if (plural == null && !resourceName.contains("/") && entry.has("kind")
                        && entry.get("kind").getAsString().equals(type.kind())) {
                    plural = resourceName;
                }
            }
        }
        return plural != null && names.contains(plural + "/status");
    }
}
