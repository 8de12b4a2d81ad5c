package dev.watchkeeper.examples.mysqlschema;

/**
 * A schema in the database server, as the operator compares it: its name and default character set.
 *
 * @param name         the schema's name (the MySQLSchema's name)
 * @param characterSet its default character set ({@code spec.encoding})
 */
public record Schema(String name, String characterSet) {
}
