package dev.watchkeeper.internal.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The recorder scenarios against the in-memory API server; and the core/v1 fallback, which it can hide. */
class RecorderOnInMemoryServerTest extends RecorderScenarios {

    private InMemoryApiServer server;

    @BeforeAll
    void start() throws Exception {
        server = InMemoryApiServer.builder().build().start();
        new CoreV1Api(server.apiClient()).createNamespace(new V1Namespace().metadata(new V1ObjectMeta()
                .name(namespace()))).execute();
    }

    @AfterAll
    void stop() throws Exception {
        server.close();
    }

    @Override
    ApiClient apiClient() {
        return server.apiClient();
    }

    @Override
    String namespace() {
        return "events";
    }

    @Test
    void withoutEventsK8sIoTheRecorderWritesCoreV1EventsWithACount() throws Exception {
        server.hide("events.k8s.io", "events");
        try {
            EventRecorder recorder = recorder(100);
            Occurrence.Regarding old = configMap("on-an-old-server");
            for (int i = 0; i < 3; i++) {
                recorder.record(old, "gen", "Warning", "Failed", "Reconcile", "again");
            }
            recorder.close(); // writes the series that grew

            List<CoreV1Event> events = new CoreV1Api(apiClient()).listNamespacedEvent(namespace()).execute()
                    .getItems().stream().filter(e -> "on-an-old-server".equals(e.getInvolvedObject().getName()))
                    .toList();
            assertThat(events).singleElement().satisfies(event -> {
                assertThat(event.getCount()).isEqualTo(3);
                assertThat(event.getReason()).isEqualTo("Failed");
                assertThat(event.getMessage()).isEqualTo("again");
                assertThat(event.getSource().getComponent()).isEqualTo("watchkeeper-test/gen");
                assertThat(event.getReportingInstance()).isEqualTo("replica-1");
                assertThat(event.getInvolvedObject().getUid()).isEqualTo(old.uid());
            });
            assertThat(recorder.counts().written()).as("create, series start, its end on close").isEqualTo(3);
        } finally {
            server.allow("events.k8s.io", "events");
        }
    }
}
