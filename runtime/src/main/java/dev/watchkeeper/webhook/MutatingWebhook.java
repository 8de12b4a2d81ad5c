package dev.watchkeeper.webhook;

import io.kubernetes.client.common.KubernetesObject;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method the API server calls, through the starter's HTTPS server, before it stores an object of
 * {@link #type()}: the method may change the object, and the API server stores it changed (the starter answers
 * with the RFC 6902 JSON patch from the object as received to the object as changed). Its parameters, in any
 * order: the object ({@code T}); optionally a second {@code T}, the stored object before an UPDATE; optionally an
 * {@link AdmissionContext}. It changes the object it is given and returns {@code void}, or returns the changed
 * object (that one or a copy). An exception it throws refuses the request with the exception's message (its first
 * line); a method that runs past the webhook's time answers as {@link #failurePolicy()} says, unchanged.
 *
 * <pre>{@code
 * @MutatingWebhook(type = V1ConfigMap.class, operations = Operation.CREATE)
 * void defaultOwnerLabel(V1ConfigMap configMap, AdmissionContext request) {
 *     configMap.getMetadata().putLabelsItem("created-by", request.userName());
 * }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface MutatingWebhook {

    /** The objects' class: a built-in model or a class annotated {@code @KubernetesResource}. */
    Class<? extends KubernetesObject> type();

    /** The operations the API server calls the webhook for. */
    Operation[] operations() default {Operation.CREATE, Operation.UPDATE};

    /**
     * The webhook's name in its configuration, a DNS name of at least three labels; empty for
     * {@code <bean>-<method>.watchkeeper.dev}. Its path on the webhook server is {@code /mutate/<name>}.
     */
    String name() default "";

    /** What the API server does when the webhook cannot answer, and what a method that overruns answers. */
    FailurePolicy failurePolicy() default FailurePolicy.FAIL;

    /** How long the API server waits for an answer, 1 to 30 seconds; the method gets a little less. */
    int timeoutSeconds() default 10;

    /** Conditions the API server checks before calling the webhook; none calls it for every matching request. */
    MatchCondition[] matchConditions() default {};
}
