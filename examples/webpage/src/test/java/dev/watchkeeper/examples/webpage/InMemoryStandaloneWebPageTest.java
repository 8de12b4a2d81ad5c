package dev.watchkeeper.examples.webpage;

import dev.watchkeeper.test.boot.AutoConfigureInMemoryKubeApi;

/** {@link WebPageScenarios} on the in-memory API server, with the standalone flavour. */
@AutoConfigureInMemoryKubeApi
class InMemoryStandaloneWebPageTest extends WebPageScenarios {

    @Override
    String namespace() {
        return "default";
    }

    @Override
    boolean validatesHtml() {
        return true;
    }
}
