package dev.watchkeeper.examples.mysqlschema;

import java.sql.SQLException;
import java.util.Optional;

/**
 * What the operator asks of the database server: the statements the original runs over JDBC
 * ({@code information_schema.schemata}, {@code CREATE SCHEMA}, {@code CREATE USER}, {@code GRANT}, {@code DROP}),
 * one method each. The example ships {@link InMemorySchemaDatabase}, a fake; a JDBC implementation for a real MySQL
 * server is a bean of this type.
 */
public interface SchemaDatabase {

    /** The schema named {@code name}, as {@code information_schema.schemata} lists it. */
    Optional<Schema> schema(String name) throws SQLException;

    /** {@code CREATE SCHEMA name DEFAULT CHARACTER SET characterSet}. */
    void createSchema(String name, String characterSet) throws SQLException;

    /** Whether {@code mysql.user} holds {@code user}. */
    boolean userExists(String user) throws SQLException;

    /** {@code CREATE USER user IDENTIFIED BY password}. */
    void createUser(String user, String password) throws SQLException;

    /** {@code GRANT ALL ON schema.* TO user}. */
    void grantAll(String schema, String user) throws SQLException;

    /** {@code DROP DATABASE IF EXISTS name}. */
    void dropSchemaIfExists(String name) throws SQLException;

    /** {@code DROP USER IF EXISTS user}. */
    void dropUserIfExists(String user) throws SQLException;
}
