package dev.watchkeeper.internal.webhook;

import dev.watchkeeper.webhook.AdmissionContext;

/** A webhook's code: a bean method adapted to the three things it may be given. */
@FunctionalInterface
public interface AdmissionMethod {

    /**
     * @param object    the object (the stored one on DELETE)
     * @param oldObject the stored object before an UPDATE, else {@code null}
     * @param context   the request around them
     * @return an {@code AdmissionVerdict}, the changed object, or {@code null} as the method's signature says
     */
    Object call(Object object, Object oldObject, AdmissionContext context) throws Exception;
}
