package dev.watchkeeper.examples.mysqlschema;

import dev.watchkeeper.test.boot.AutoConfigureInMemoryKubeApi;

/** {@link MySqlSchemaScenarios} on the in-memory API server. */
@AutoConfigureInMemoryKubeApi
class InMemoryMySqlSchemaTest extends MySqlSchemaScenarios {

    @Override
    String namespace() {
        return "default";
    }
}
