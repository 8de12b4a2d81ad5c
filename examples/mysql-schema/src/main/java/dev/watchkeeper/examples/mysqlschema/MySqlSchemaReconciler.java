package dev.watchkeeper.examples.mysqlschema;

import dev.watchkeeper.annotation.Cleanup;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.reconcile.Dependents;
import dev.watchkeeper.reconcile.DependentsResult;
import dev.watchkeeper.reconcile.ReconcileContext;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Secret;
import java.time.Duration;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The original's reconciler: the dependents first (the Secret, then the schema), then the status says where the
 * schema is and who may use it; a failure writes {@code ERROR: } and why, and is retried with the object's backoff.
 * Under the original's finalizer, a deleted MySQLSchema's schema and user are dropped before it goes.
 */
@Component
class MySqlSchemaReconciler {

    static final String FINALIZER = "mysqlschemas.mysql.sample.javaoperatorsdk/finalizer";
    static final String CREATED = "CREATED";

    private final Dependents<MySqlSchema> dependents;
    private final String host;

    MySqlSchemaReconciler(SchemaDatabase database,
            @Value("${mysql-schema.poll-interval:300ms}") Duration pollInterval,
            @Value("${mysql-schema.host:localhost}") String host) {
        this.dependents = SchemaDependents.of(database, pollInterval);
        this.host = host;
    }

    // tag::reconcile[]
    @Reconciler(name = "mysql-schema", namespace = "${mysql-schema.namespace:}", owns = V1Secret.class,
            finalizer = FINALIZER)
    void reconcile(MySqlSchema schema, ReconcileContext context) throws ApiException, InterruptedException {
        DependentsResult result;
        try {
            result = context.reconcileDependents(dependents);
        } catch (ApiException | RuntimeException e) {
            context.updateStatus(schema, s -> status(s, null, "ERROR: " + message(e), null, null));
            throw e;
        }
        Optional<Schema> made = result.external("schema", Schema.class);
        if (made.isPresent()) {
            context.updateStatus(schema, s -> status(s, "jdbc:mysql://" + host + "/" + made.get().name(), CREATED,
                    SchemaDependents.userName(s), SchemaDependents.secretName(s)));
        }
    }

    @Cleanup
    void cleanup(MySqlSchema schema, ReconcileContext context) throws ApiException, InterruptedException {
        context.deleteDependents(dependents);
    }
    // end::reconcile[]

    private static void status(MySqlSchema schema, String url, String status, String userName, String secretName) {
        MySqlSchema.Status fields = schema.getStatus() == null ? new MySqlSchema.Status() : schema.getStatus();
        fields.setUrl(url);
        fields.setStatus(status);
        fields.setUserName(userName);
        fields.setSecretName(secretName);
        schema.setStatus(fields);
    }

    /** The root cause's message: the database's own words, not the wrapper's. */
    private static String message(Exception e) {
        Throwable cause = e;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage();
    }
}
