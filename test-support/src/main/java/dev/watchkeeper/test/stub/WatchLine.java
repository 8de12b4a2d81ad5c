package dev.watchkeeper.test.stub;

import java.util.Objects;

/**
 * One line of a watch response, as sent (without the newline). Usually a JSON event built by
 * {@link Replies#added}, {@link Replies#bookmark} and friends; {@link Replies#notJson(String)} is anything else.
 */
public record WatchLine(String text) {

    public WatchLine {
        Objects.requireNonNull(text, "text");
        if (text.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("a watch line cannot contain a newline: " + text);
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
