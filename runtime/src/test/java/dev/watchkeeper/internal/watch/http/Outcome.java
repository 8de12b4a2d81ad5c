package dev.watchkeeper.internal.watch.http;

import com.google.gson.JsonElement;

/** What a reader made of one watch line or object, in terms both sides can be compared in. */
sealed interface Outcome {

    /** A change (with {@code type} {@code null}: an object alone) and its model, written as the client writes it. */
    record Change(String type, JsonElement model) implements Outcome {
    }

    record Bookmark(String resourceVersion, boolean initialEventsEnd) implements Outcome {
    }

    /** A bookmark, or rejected when it says nothing: no resourceVersion (the watcher keeps its own) and no list end. */
    static Outcome bookmark(String resourceVersion, boolean initialEventsEnd) {
        return resourceVersion == null && !initialEventsEnd ? new Rejected("a bookmark without a resourceVersion")
                : new Bookmark(resourceVersion, initialEventsEnd);
    }

    record Error(int code, String reason) implements Outcome {
    }

    /**
     * Nothing a cache can use: not JSON, no object of the type, no name, an unknown event type. Every rejection equals
     * every other: {@code why} is for the failure message only.
     */
    record Rejected(String why) implements Outcome {
        @Override
        public boolean equals(Object other) {
            return other instanceof Rejected;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    /** Our metadata, read from the bytes, is not the decoded model's; the reference never gives this. */
    record Inconsistent(String what) implements Outcome {
    }
}
