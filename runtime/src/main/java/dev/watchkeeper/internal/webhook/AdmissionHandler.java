package dev.watchkeeper.internal.webhook;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.watchkeeper.internal.json.ModelGson;
import dev.watchkeeper.webhook.AdmissionContext;
import dev.watchkeeper.webhook.AdmissionVerdict;
import dev.watchkeeper.webhook.FailurePolicy;
import dev.watchkeeper.webhook.Operation;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one webhook's admission requests: decodes the objects into the webhook's type, calls its method on a
 * thread of {@code calls} for at most the definition's {@link WebhookDefinition#methodTimeout() method timeout}, and
 * turns what it returns or throws into a response. A thrown exception refuses the request with its message's first
 * line (the stack trace stays in the log); a method still running at its time limit is interrupted and the request
 * answered as the failure policy says, so the API server never waits past its own timeout. The objects are read as
 * the watchers read them: a field the client's model does not know (from an API server newer than the client) is
 * skipped, not a refusal.
 *
 * <p>A mutating webhook's patch goes from the received object to that object with the method's changes: what the
 * method changed is found between the object as the model writes it before and after the call
 * ({@link JsonPatch#rebase}), so what the model writes differently from the API server (members it does not know,
 * time formats, empty maps it starts with) is never part of a patch.
 */
public final class AdmissionHandler {

    private static final Logger log = LoggerFactory.getLogger(AdmissionHandler.class);

    private final WebhookDefinition definition;
    private final AdmissionMethod method;
    private final Gson gson;
    /** {@link #gson} reading the client's models as the watchers do: fields they do not know are skipped. */
    private final Gson reader;
    private final ExecutorService calls;
    private final Duration timeout;

    public AdmissionHandler(WebhookDefinition definition, AdmissionMethod method, Gson gson, ExecutorService calls) {
        this(definition, method, gson, calls, definition.methodTimeout());
    }

    /** With the method's time limit given, for tests. */
    AdmissionHandler(WebhookDefinition definition, AdmissionMethod method, Gson gson, ExecutorService calls,
            Duration timeout) {
        this.definition = definition;
        this.method = method;
        this.gson = gson;
        this.reader = ModelGson.around(gson);
        this.calls = calls;
        this.timeout = timeout;
    }

    public WebhookDefinition definition() {
        return definition;
    }

    /** The answer to {@code request}; never throws for what the method does. */
    public AdmissionResponse handle(AdmissionRequest request) throws InterruptedException {
        AdmissionContext context = request.context();
        boolean delete = context.operation() == Operation.DELETE;
        JsonObject received = delete ? request.oldObject() : request.object();
        if (received == null) {
            return denied(context, "the request carries no object to " + (delete ? "delete" : "admit"));
        }
        Object object;
        Object oldObject;
        try {
            object = decode(received);
            oldObject = delete || request.oldObject() == null ? null : decode(request.oldObject());
        } catch (RuntimeException e) { // Gson's and the models' own checks
            return denied(context, "cannot read the object as " + definition.type().javaType().getSimpleName()
                    + ": " + oneLine(e));
        }
        Future<Object> call = calls.submit(() -> method.call(object, oldObject, context));
        Object result;
        try {
            result = call.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            call.cancel(true);
            return overran(context);
        } catch (ExecutionException e) {
            Throwable error = e.getCause();
            log.warn("webhook {} refused {} of {}/{} ({}): its method threw", definition.name(),
                    context.operation(), context.namespace(), context.name(), context.uid(), error);
            return denied(context, oneLine(error));
        } catch (InterruptedException e) {
            call.cancel(true);
            throw e;
        }
        return definition.kind() == WebhookKind.VALIDATING ? validated(context, result)
                : mutated(context, received, object, result);
    }

    private AdmissionResponse validated(AdmissionContext context, Object result) {
        if (result == null) {
            return new AdmissionResponse(context.uid(), true, null, List.of(), null);
        }
        AdmissionVerdict verdict = (AdmissionVerdict) result;
        return new AdmissionResponse(context.uid(), verdict.allowed(), verdict.message(), verdict.warnings(), null);
    }

    private AdmissionResponse mutated(AdmissionContext context, JsonObject received, Object object, Object result) {
        if (context.operation() == Operation.DELETE) { // nothing is stored, so there is nothing to patch
            return new AdmissionResponse(context.uid(), true, null, List.of(), null);
        }
        Object changed = result != null ? result : object;
        if (!definition.type().javaType().isInstance(changed)) {
            return denied(context, "the webhook returned a " + changed.getClass().getSimpleName() + ", not a "
                    + definition.type().javaType().getSimpleName());
        }
        JsonArray patch = JsonPatch.diff(received,
                JsonPatch.rebase(received, gson.toJsonTree(decode(received)), gson.toJsonTree(changed)));
        return new AdmissionResponse(context.uid(), true, null, List.of(), patch);
    }

    private AdmissionResponse overran(AdmissionContext context) {
        String message = "webhook " + definition.name() + " did not decide within " + timeout.toMillis() + " ms";
        log.warn("{} on {} of {}/{} ({}); answered as failurePolicy {} says", message, context.operation(),
                context.namespace(), context.name(), context.uid(), definition.failurePolicy().wireName());
        return definition.failurePolicy() == FailurePolicy.FAIL ? denied(context, message)
                : new AdmissionResponse(context.uid(), true, null, List.of(message), null);
    }

    private Object decode(JsonObject json) {
        return reader.fromJson(json, definition.type().javaType());
    }

    private static AdmissionResponse denied(AdmissionContext context, String message) {
        return new AdmissionResponse(context.uid(), false, message, List.of(), null);
    }

    /** The first line of the error's message, or its class's name when it has none. */
    static String oneLine(Throwable error) {
        String message = error.getMessage();
        if (message == null || message.isBlank()) {
            return error.getClass().getSimpleName();
        }
        int end = message.indexOf('\n');
        return (end < 0 ? message : message.substring(0, end)).strip();
    }
}
