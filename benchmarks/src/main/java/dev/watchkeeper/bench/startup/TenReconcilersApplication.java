package dev.watchkeeper.bench.startup;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Scenario 5's application: a plain {@code @SpringBootApplication} whose component scan finds the ten
 * {@link TenReconcilers} beans. With the starter each becomes a controller on a watcher of its own; with
 * Watchkeeper's auto-configurations excluded they are ordinary beans.
 */
@SpringBootApplication
public class TenReconcilersApplication {
}
