package dev.watchkeeper.examples.mysqlschema;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A fake of the database server, in this process, for the example and its tests (no MySQL runs here): schemas,
 * users with their passwords, and grants, kept in maps. It refuses what MySQL refuses in the operator's statements
 * (an unknown character set, a schema or user that exists, a grant to an unknown user or schema), with MySQL's
 * messages, and can be taken {@link #available down}, as a server that cannot be reached.
 */
public class InMemorySchemaDatabase implements SchemaDatabase {

    /** Character sets this fake knows, a few of MySQL's. */
    static final Set<String> CHARACTER_SETS = Set.of("utf8", "utf8mb3", "utf8mb4", "latin1", "ascii", "binary");

    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();
    private final Map<String, String> passwords = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> grants = new ConcurrentHashMap<>();
    private volatile boolean available = true;

    @Override
    public Optional<Schema> schema(String name) throws SQLException {
        reachable();
        return Optional.ofNullable(schemas.get(name));
    }

    @Override
    public void createSchema(String name, String characterSet) throws SQLException {
        reachable();
        if (characterSet == null || !CHARACTER_SETS.contains(characterSet)) {
            throw new SQLException("Unknown character set: '" + characterSet + "'", "42000", 1115);
        }
        if (schemas.putIfAbsent(name, new Schema(name, characterSet)) != null) {
            throw new SQLException("Can't create database '" + name + "'; database exists", "HY000", 1007);
        }
    }

    @Override
    public boolean userExists(String user) throws SQLException {
        reachable();
        return passwords.containsKey(user);
    }

    @Override
    public void createUser(String user, String password) throws SQLException {
        reachable();
        if (passwords.putIfAbsent(user, password) != null) {
            throw new SQLException("Operation CREATE USER failed for '" + user + "'@'%'", "HY000", 1396);
        }
    }

    @Override
    public void grantAll(String schema, String user) throws SQLException {
        reachable();
        if (!passwords.containsKey(user)) {
            throw new SQLException("Can't find any matching row in the user table", "42000", 1133);
        }
        if (!schemas.containsKey(schema)) {
            throw new SQLException("Unknown database '" + schema + "'", "42000", 1049);
        }
        grants.computeIfAbsent(user, ignored -> ConcurrentHashMap.newKeySet()).add(schema);
    }

    @Override
    public void dropSchemaIfExists(String name) throws SQLException {
        reachable();
        schemas.remove(name);
        grants.values().forEach(schemasOfUser -> schemasOfUser.remove(name));
    }

    @Override
    public void dropUserIfExists(String user) throws SQLException {
        reachable();
        passwords.remove(user);
        grants.remove(user);
    }

    /** The password of {@code user}, empty when there is no such user. */
    public Optional<String> password(String user) {
        return Optional.ofNullable(passwords.get(user));
    }

    /** The schemas {@code user} may use. */
    public Set<String> grants(String user) {
        return Set.copyOf(grants.getOrDefault(user, Set.of()));
    }

    /** Takes the server down ({@code false}: every statement fails as an unreachable server's would) or up. */
    public void available(boolean available) {
        this.available = available;
    }

    private void reachable() throws SQLException {
        if (!available) {
            throw new SQLNonTransientConnectionException("Communications link failure", "08S01");
        }
    }
}
