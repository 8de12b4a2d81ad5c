package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;

/**
 * One change in the history: {@code ADDED}, {@code MODIFIED} or {@code DELETED} of an object. The objects are never
 * mutated after being stored, so events may be shared between watches.
 *
 * @param resourceVersion the global resourceVersion of the change
 * @param type            {@code ADDED}, {@code MODIFIED} or {@code DELETED}
 * @param groupResource   {@link ApiResource#groupResource()} of the object
 * @param object          the object after the change (for DELETED: its last state, with the deletion's rv)
 * @param previous        the object before a MODIFIED or DELETED, {@code null} for ADDED
 */
record StoredEvent(long resourceVersion, String type, String groupResource, JsonObject object, JsonObject previous) {
}
