package dev.watchkeeper.examples.cronjob;

import dev.watchkeeper.test.boot.AutoConfigureInMemoryKubeApi;

/** {@link CronJobScenarios} on the in-memory API server. */
@AutoConfigureInMemoryKubeApi
class InMemoryCronJobTest extends CronJobScenarios {

    @Override
    String namespace() {
        return "default";
    }

    @Override
    boolean validates() {
        return false;
    }
}
