package dev.watchkeeper.autoconfigure.it;

import dev.watchkeeper.test.boot.AutoConfigureInMemoryKubeApi;

/** {@link OwnsWhenServedContract} on the in-memory API server. */
@AutoConfigureInMemoryKubeApi
class OwnsWhenServedOnInMemoryServerIntegrationTests extends OwnsWhenServedContract {

    @Override
    String namespace() {
        return "default";
    }
}
