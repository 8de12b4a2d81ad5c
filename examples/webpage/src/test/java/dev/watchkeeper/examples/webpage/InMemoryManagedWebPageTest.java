package dev.watchkeeper.examples.webpage;

import dev.watchkeeper.test.boot.AutoConfigureInMemoryKubeApi;
import org.springframework.test.context.TestPropertySource;

/** {@link WebPageScenarios} on the in-memory API server, with the managed flavour. */
@AutoConfigureInMemoryKubeApi
@TestPropertySource(properties = "webpage.reconciler=managed")
class InMemoryManagedWebPageTest extends WebPageScenarios {

    @Override
    String namespace() {
        return "default";
    }

    @Override
    boolean validatesHtml() {
        return false;
    }
}
