package dev.watchkeeper.examples.mysqlschema;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The MySQLSchema operator: {@code java -jar} with a kubeconfig, {@code --watchkeeper.crds.apply=true} to install the
 * MySQLSchema CRD. Its database is the in-process {@link InMemorySchemaDatabase} fake unless the application defines
 * a {@link SchemaDatabase} bean of its own (a JDBC one for a real server).
 */
@SpringBootApplication
public class MySqlSchemaOperator {

    public static void main(String[] args) {
        SpringApplication.run(MySqlSchemaOperator.class, args);
    }

    @Bean
    @ConditionalOnMissingBean(SchemaDatabase.class)
    InMemorySchemaDatabase schemaDatabase() {
        return new InMemorySchemaDatabase();
    }
}
