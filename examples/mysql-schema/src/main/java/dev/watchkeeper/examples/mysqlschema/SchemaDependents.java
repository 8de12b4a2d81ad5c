package dev.watchkeeper.examples.mysqlschema;

import dev.watchkeeper.reconcile.Dependent;
import dev.watchkeeper.reconcile.Dependents;
import dev.watchkeeper.reconcile.ExternalResource;
import dev.watchkeeper.reconcile.ReconcileContext;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The original's workflow: the {@code secret} (the schema user's name and a generated password), then the
 * {@code schema}, which depends on it: an external dependent made in the database with its user and grant, polled
 * every {@code pollInterval}, and dropped with its user by the primary's cleanup.
 */
final class SchemaDependents implements ExternalResource<MySqlSchema, Schema> {

    static final String USER_KEY = "mysql.secret.user.name";
    static final String PASSWORD_KEY = "mysql.secret.user.password";
    private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SchemaDatabase database;

    private SchemaDependents(SchemaDatabase database) {
        this.database = database;
    }

    // tag::dependents[]
    static Dependents<MySqlSchema> of(SchemaDatabase database, Duration pollInterval) {
        return Dependents.of(MySqlSchema.class,
                Dependent.of("secret", V1Secret.class, SchemaDependents::secret),
                Dependent.external("schema", Schema.class, new SchemaDependents(database))
                        .dependsOn("secret").pollEvery(pollInterval));
    }
    // end::dependents[]

    static String secretName(MySqlSchema schema) {
        return schema.getMetadata().getName() + "-secret";
    }

    static String userName(MySqlSchema schema) {
        return schema.getMetadata().getName() + "-user";
    }

    /**
     * The Secret with the user's name and password. The original makes it once and never changes it; here the
     * password already stored is desired again, so the Secret is not re-applied and a changed one is put back.
     */
    static V1Secret secret(MySqlSchema schema, ReconcileContext context) {
        String password = stored(schema, context).map(secret -> secret.getData().get(PASSWORD_KEY))
                .map(bytes -> new String(bytes, StandardCharsets.UTF_8)).orElseGet(SchemaDependents::password);
        return new V1Secret().metadata(new V1ObjectMeta().namespace(schema.getMetadata().getNamespace())
                .name(secretName(schema))).data(Map.of(
                        USER_KEY, userName(schema).getBytes(StandardCharsets.UTF_8),
                        PASSWORD_KEY, password.getBytes(StandardCharsets.UTF_8)));
    }

    private static Optional<V1Secret> stored(MySqlSchema schema, ReconcileContext context) {
        return context.owned(V1Secret.class).stream()
                .filter(secret -> secretName(schema).equals(secret.getMetadata().getName()))
                .filter(secret -> secret.getData() != null && secret.getData().containsKey(PASSWORD_KEY))
                .findFirst();
    }

    /** 16 random letters and digits, as the original's password. */
    private static String password() {
        StringBuilder password = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            password.append(ALPHANUMERIC.charAt(RANDOM.nextInt(ALPHANUMERIC.length())));
        }
        return password.toString();
    }

    @Override
    public Schema desired(MySqlSchema schema, ReconcileContext context) {
        return new Schema(schema.getMetadata().getName(), schema.getSpec().getEncoding());
    }

    @Override
    public Optional<Schema> fetch(MySqlSchema schema) throws Exception {
        return database.schema(schema.getMetadata().getName());
    }

    /**
     * The schema, its user (unless it exists) and the grant, with the Secret's password. The Secret was applied in
     * this same reconcile the first time, so the cache may not hold it yet: then it is read from the API server.
     */
    @Override
    public Schema create(MySqlSchema schema, Schema desired, ReconcileContext context) throws Exception {
        V1Secret secret = stored(schema, context).orElse(null);
        if (secret == null) {
            secret = read(schema, context);
        }
        String user = new String(secret.getData().get(USER_KEY), StandardCharsets.UTF_8);
        String password = new String(secret.getData().get(PASSWORD_KEY), StandardCharsets.UTF_8);
        database.createSchema(desired.name(), desired.characterSet());
        if (!database.userExists(user)) {
            database.createUser(user, password);
        }
        database.grantAll(desired.name(), user);
        return desired;
    }

    private static V1Secret read(MySqlSchema schema, ReconcileContext context) throws ApiException {
        return new CoreV1Api(context.apiClient())
                .readNamespacedSecret(secretName(schema), schema.getMetadata().getNamespace()).execute();
    }

    /** Drops the schema and its user (the one the status names, else the one this operator makes). */
    @Override
    public void delete(MySqlSchema schema, ReconcileContext context) throws Exception {
        database.dropSchemaIfExists(schema.getMetadata().getName());
        String user = schema.getStatus() != null && schema.getStatus().getUserName() != null
                ? schema.getStatus().getUserName() : userName(schema);
        database.dropUserIfExists(user);
    }
}
