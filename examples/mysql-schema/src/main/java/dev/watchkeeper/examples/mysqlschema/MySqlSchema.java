package dev.watchkeeper.examples.mysqlschema;

import dev.watchkeeper.annotation.KubernetesResource;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * A {@code MySQLSchema} ({@code mysql.sample.javaoperatorsdk/v1}, the original's group, so its manifests apply
 * unchanged): a schema in the database server with the character set asked for, and a user that may use it.
 *
 * <pre>
 * apiVersion: mysql.sample.javaoperatorsdk/v1
 * kind: MySQLSchema
 * metadata: {name: mydb1}
 * spec: {encoding: utf8}
 * </pre>
 */
@KubernetesResource(group = MySqlSchema.GROUP, version = "v1", kind = "MySQLSchema", plural = "mysqlschemas")
public class MySqlSchema implements KubernetesObject {

    public static final String GROUP = "mysql.sample.javaoperatorsdk";

    private String apiVersion = GROUP + "/v1";
    private String kind = "MySQLSchema";
    private V1ObjectMeta metadata;
    private Spec spec;
    private Status status;

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    public void setApiVersion(String apiVersion) {
        this.apiVersion = apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    @Override
    public V1ObjectMeta getMetadata() {
        return metadata;
    }

    public void setMetadata(V1ObjectMeta metadata) {
        this.metadata = metadata;
    }

    public Spec getSpec() {
        return spec;
    }

    public void setSpec(Spec spec) {
        this.spec = spec;
    }

    public Status getStatus() {
        return status;
    }

    public void setStatus(Status status) {
        this.status = status;
    }

    /** The schema's default character set. */
    public static class Spec {

        private String encoding;

        public String getEncoding() {
            return encoding;
        }

        public void setEncoding(String encoding) {
            this.encoding = encoding;
        }
    }

    /** Where the schema is and who may use it, or why it could not be made. */
    public static class Status {

        private String url;
        private String status;
        private String userName;
        private String secretName;

        /** The schema's JDBC URL. */
        public String getUrl() {
            return url;
        }

        public void setUrl(String url) {
            this.url = url;
        }

        /** {@code CREATED}, or {@code ERROR: } and why. */
        public String getStatus() {
            return status;
        }

        public void setStatus(String status) {
            this.status = status;
        }

        /** The schema's user. */
        public String getUserName() {
            return userName;
        }

        public void setUserName(String userName) {
            this.userName = userName;
        }

        /** The Secret that holds the user's name and password. */
        public String getSecretName() {
            return secretName;
        }

        public void setSecretName(String secretName) {
            this.secretName = secretName;
        }
    }
}
