package dev.watchkeeper.internal.settings;

import java.time.Duration;
import java.util.Locale;

/**
 * A settings value its record or policy refuses, naming the field (the record component or constructor parameter,
 * e.g. {@code maxInterval}), the value, and the rule it breaks. The Boot layer maps the field to the property it
 * came from, so the rule is written once, here in the core.
 *
 * <pre>{@code
 * try {
 *     new BackOffSettings(Duration.ZERO, 2.0, Duration.ofSeconds(30), 1.0, Duration.ofMinutes(2), null);
 * } catch (InvalidSettingException e) {
 *     e.field();   // "initialInterval"
 *     e.rule();    // "must be positive"
 * }
 * }</pre>
 */
public class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String field;
    private final transient Object value;
    private final String rule;

    /** A refused value: {@code field} = {@code value} breaks {@code rule}. */
    public InvalidSettingException(String field, Object value, String rule) {
        super(words(field) + " " + rule + ", was " + value);
        this.field = field;
        this.value = value;
        this.rule = rule;
    }

    /** Fails unless {@code value} is above zero. */
    public static void requirePositive(String field, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new InvalidSettingException(field, value, "must be positive");
        }
    }

    /** Fails when {@code value} is below zero. */
    public static void requireNotNegative(String field, Duration value) {
        if (value.isNegative()) {
            throw new InvalidSettingException(field, value, "must not be negative");
        }
    }

    /** The field as named in code, e.g. {@code maxInterval}. */
    public String field() {
        return field;
    }

    /** The refused value. */
    public Object value() {
        return value;
    }

    /** What the value must be, e.g. {@code must be positive}. */
    public String rule() {
        return rule;
    }

    /** {@code maxInterval} as {@code max interval}, for the message. */
    private static String words(String field) {
        return field.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    }
}
