package dev.watchkeeper.readme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.test.boot.AutoConfigureInMemoryKubeApi;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Import;

/** The README's getting-started reconciler, in an application of its own, does what the README says. */
@SpringBootTest(classes = GettingStartedTest.App.class)
@AutoConfigureInMemoryKubeApi
@ExtendWith(OutputCaptureExtension.class)
class GettingStartedTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(ConfigMapReconciler.class)
    static class App {
    }

    @Autowired
    InMemoryApiServer server;

    @Test
    void reconcilesEachConfigMapOfTheDefaultNamespace(CapturedOutput output) {
        server.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("other").name("elsewhere")));
        server.create(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("default").name("app-config")));

        await().until(() -> output.getOut().contains("reconciling app-config"));
        assertThat(output.getOut()).doesNotContain("reconciling elsewhere");
    }
}
