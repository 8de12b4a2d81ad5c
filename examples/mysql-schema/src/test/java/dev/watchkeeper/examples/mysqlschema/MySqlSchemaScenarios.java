package dev.watchkeeper.examples.mysqlschema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The original's end-to-end test ({@code MySQLSchemaOperatorE2E}), turned into ours and run on each server by a
 * subclass: a schema is created and reported {@code CREATED} with its Secret and user, then deleted, and gone once
 * its cleanup ran. The original runs MariaDB in the cluster behind a port-forward; here the database is the
 * in-process {@link InMemorySchemaDatabase} fake, so the test also checks what the original leaves out: the schema,
 * the user with the Secret's password and the grant in the database, the poll that puts back a schema dropped behind
 * the operator's back (no Kubernetes event tells it), the drop at deletion, and a schema the database refuses, whose
 * status and {@code /actuator/watchkeeper} say why.
 */
@SpringBootTest(classes = MySqlSchemaOperator.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {"watchkeeper.crds.apply=true", "mysql-schema.poll-interval=200ms",
                "management.endpoints.web.exposure.include=health,watchkeeper,metrics"})
@DirtiesContext
abstract class MySqlSchemaScenarios {

    /** The original waits up to 2 minutes for a schema and 4 for its deletion, for a database in the cluster. */
    static final Duration WAIT = Duration.ofSeconds(30);

    @Autowired
    ApiClient client;

    @Autowired
    InMemorySchemaDatabase database;

    @LocalServerPort
    int port;

    abstract String namespace();

    @Test
    void aSchemaIsCreatedWithItsSecretAndUserKeptByItsPollAndDroppedWhenDeleted() throws Exception {
        String ns = namespace();
        DynamicKubernetesApi schemas = schemas();
        schemas.create(schema(ns, "mydb1", "utf8")).throwsApiException();

        // The original's checks: CREATED, with the Secret and the user named.
        await().atMost(WAIT).ignoreExceptions().until(() -> {
            JsonObject status = status(schemas, "mydb1");
            return "CREATED".equals(string(status, "status")) && string(status, "secretName") != null
                    && string(status, "userName") != null;
        });
        JsonObject status = status(schemas, "mydb1");
        assertThat(string(status, "secretName")).isEqualTo("mydb1-secret");
        assertThat(string(status, "userName")).isEqualTo("mydb1-user");
        assertThat(string(status, "url")).isEqualTo("jdbc:mysql://localhost/mydb1");

        // What the database holds: the schema, and its user with the Secret's password and the grant.
        V1Secret secret = new CoreV1Api(client).readNamespacedSecret("mydb1-secret", ns).execute();
        String password = new String(secret.getData().get(SchemaDependents.PASSWORD_KEY), StandardCharsets.UTF_8);
        assertThat(password).hasSize(16).matches("[A-Za-z0-9]+");
        assertThat(new String(secret.getData().get(SchemaDependents.USER_KEY), StandardCharsets.UTF_8))
                .isEqualTo("mydb1-user");
        assertThat(secret.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getName()).isEqualTo("mydb1"));
        assertThat(database.schema("mydb1")).contains(new Schema("mydb1", "utf8"));
        assertThat(database.password("mydb1-user")).contains(password);
        assertThat(database.grants("mydb1-user")).containsExactly("mydb1");

        // Dropped behind the operator's back: no Kubernetes object changes, the poll sees it and it is made again.
        database.dropSchemaIfExists("mydb1");
        await().atMost(WAIT).until(() -> database.schema("mydb1").isPresent());
        assertThat(database.grants("mydb1-user")).containsExactly("mydb1");
        assertThat(new CoreV1Api(client).readNamespacedSecret("mydb1-secret", ns).execute().getData()
                .get(SchemaDependents.PASSWORD_KEY)).as("the Secret keeps its password")
                .isEqualTo(secret.getData().get(SchemaDependents.PASSWORD_KEY));

        // Counted per dependent: the Secret applied once, then skipped as unchanged by the reconcile the poll queued.
        assertThat(metric("watchkeeper.dependent.applies", "secret")).isPositive();
        assertThat(metric("watchkeeper.dependent.unchanged", "secret")).isPositive();
        assertThat(metric("watchkeeper.dependent.applies", "schema")).isGreaterThanOrEqualTo(2);

        // Deleted: the original waits until the object is gone, which needs its cleanup to drop schema and user.
        schemas.delete(ns, "mydb1").throwsApiException();
        await().atMost(WAIT).until(() -> schemas.get(ns, "mydb1").getHttpStatusCode() == 404);
        assertThat(database.schema("mydb1")).isEmpty();
        assertThat(database.password("mydb1-user")).isEmpty();
    }

    @Test
    void aSchemaTheDatabaseRefusesSaysWhyInItsStatusAndTheEndpointUntilItIsFixed() throws Exception {
        String ns = namespace();
        DynamicKubernetesApi schemas = schemas();
        schemas.create(schema(ns, "mydb2", "klingon")).throwsApiException();

        await().atMost(WAIT).ignoreExceptions().until(() -> "ERROR: Unknown character set: 'klingon'"
                .equals(string(status(schemas, "mydb2"), "status")));
        assertThat(string(status(schemas, "mydb2"), "userName")).isNull();
        JsonArray dependents = await().atMost(WAIT).until(() -> endpointDependents(), held -> held.size() == 2
                && held.get(1).getAsJsonObject().get("heldKeys").getAsInt() == 1);
        assertThat(dependents.get(0).getAsJsonObject().get("name").getAsString()).isEqualTo("secret");
        JsonObject schema = dependents.get(1).getAsJsonObject();
        assertThat(schema.get("name").getAsString()).isEqualTo("schema");
        assertThat(schema.get("kind").getAsString()).isEqualTo("external Schema");
        assertThat(schema.get("dependsOn").getAsJsonArray().get(0).getAsString()).isEqualTo("secret");
        assertThat(schema.get("failures").getAsLong()).isPositive();
        JsonObject held = schema.getAsJsonArray("held").get(0).getAsJsonObject();
        assertThat(held.get("key").getAsString()).isEqualTo(ns + "/mydb2");
        assertThat(held.get("phase").getAsString()).isEqualTo("failed");
        assertThat(held.get("reason").getAsString()).contains("Unknown character set: 'klingon'");

        // Fixed: made, and no longer held.
        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> {
            DynamicKubernetesObject object = schemas.get(ns, "mydb2").throwsApiException().getObject();
            object.getRaw().getAsJsonObject("spec").addProperty("encoding", "latin1");
            schemas.update(object).throwsApiException();
        });
        await().atMost(WAIT).ignoreExceptions().until(() -> "CREATED".equals(string(status(schemas, "mydb2"),
                "status")));
        assertThat(database.schema("mydb2")).contains(new Schema("mydb2", "latin1"));
        await().atMost(WAIT).until(() -> endpointDependents().get(1).getAsJsonObject().get("heldKeys").getAsInt() == 0);

        schemas.delete(ns, "mydb2").throwsApiException();
        await().atMost(WAIT).until(() -> schemas.get(ns, "mydb2").getHttpStatusCode() == 404);
        assertThat(database.schema("mydb2")).isEmpty();
    }

    private DynamicKubernetesApi schemas() {
        return new DynamicKubernetesApi(MySqlSchema.GROUP, "v1", "mysqlschemas", client);
    }

    /** The reconciler's dependents as {@code /actuator/watchkeeper/mysql-schema} shows them, over HTTP. */
    private JsonArray endpointDependents() throws Exception {
        return actuator("watchkeeper/mysql-schema").getAsJsonArray("dependents");
    }

    /** The count of {@code meter} for the reconciler's {@code dependent}, from {@code /actuator/metrics}. */
    private double metric(String meter, String dependent) throws Exception {
        return actuator("metrics/" + meter + "?tag=reconciler:mysql-schema&tag=dependent:" + dependent)
                .getAsJsonArray("measurements").get(0).getAsJsonObject().get("value").getAsDouble();
    }

    private JsonObject actuator(String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + port + "/actuator/" + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return JsonParser.parseString(response.body()).getAsJsonObject();
    }

    private static DynamicKubernetesObject schema(String namespace, String name, String encoding) {
        JsonObject raw = new JsonObject();
        raw.addProperty("apiVersion", MySqlSchema.GROUP + "/v1");
        raw.addProperty("kind", "MySQLSchema");
        JsonObject metadata = new JsonObject();
        metadata.addProperty("namespace", namespace);
        metadata.addProperty("name", name);
        raw.add("metadata", metadata);
        JsonObject spec = new JsonObject();
        spec.addProperty("encoding", encoding);
        raw.add("spec", spec);
        return new DynamicKubernetesObject(raw);
    }

    private JsonObject status(DynamicKubernetesApi schemas, String name) throws ApiException {
        return schemas.get(namespace(), name).throwsApiException().getObject().getRaw().getAsJsonObject("status");
    }

    private static String string(JsonObject object, String field) {
        return object == null || !object.has(field) || object.get(field).isJsonNull() ? null
                : object.get(field).getAsString();
    }
}
