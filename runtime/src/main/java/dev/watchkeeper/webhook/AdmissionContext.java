package dev.watchkeeper.webhook;

import java.util.List;

/**
 * The request around the object a webhook method is given; declare a parameter of this type to receive it.
 *
 * @param operation what is done to the object
 * @param dryRun    whether the API server will not persist the result: a method must then change nothing
 *                  outside the object (every webhook is registered with {@code sideEffects: None})
 * @param userName  who asks, as authenticated
 * @param groups    that user's groups
 * @param namespace the object's namespace; empty for a cluster-scoped object
 * @param name      the object's name; empty on a CREATE whose name the server generates
 * @param uid       the admission request's id, for logs
 */
public record AdmissionContext(Operation operation, boolean dryRun, String userName, List<String> groups,
        String namespace, String name, String uid) {

    public AdmissionContext {
        groups = List.copyOf(groups);
    }
}
