package dev.watchkeeper.internal.events;

import io.kubernetes.client.openapi.ApiException;

/** Where the recorder's writes go: the API server ({@link HttpEventSink}), or a test's double. */
interface EventSink {

    /** Makes {@code write}; a failure is the recorder's to log and count. */
    void write(EventWrite write) throws ApiException;
}
