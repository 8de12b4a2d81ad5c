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
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** The smallest reconciler of docs/reconcilers.md, in {@link ReadmeApplication}, does what the guide says. */
// A context of its own (no cached one): the log is captured only when logging starts inside the capture.
@SpringBootTest(properties = "spring.application.name=getting-started")
@AutoConfigureInMemoryKubeApi
@ExtendWith(OutputCaptureExtension.class)
class GettingStartedTest {

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
