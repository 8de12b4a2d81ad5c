package dev.watchkeeper.webhook;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A CEL expression the API server evaluates before calling the webhook; the webhook is called only when every
 * condition is true, e.g. {@code @MatchCondition(name = "labelled", expression = "has(object.metadata.labels)")}.
 * The expression may hold {@code ${...}} placeholders.
 */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface MatchCondition {

    /** Unique among the webhook's conditions; a DNS label. */
    String name();

    /** CEL over {@code object}, {@code oldObject}, {@code request} and {@code authorizer}; true to call. */
    String expression();
}
