package dev.watchkeeper.test.readme;

import static dev.watchkeeper.test.stub.Replies.added;
import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.events;
import static dev.watchkeeper.test.stub.Replies.page;
import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.resource.ResourceType;
import dev.watchkeeper.test.EventRecorder;
import dev.watchkeeper.test.VirtualTime;
import dev.watchkeeper.test.stub.KubeApiStub;
import dev.watchkeeper.watch.WatchScope;
import dev.watchkeeper.internal.watch.Watcher;
import dev.watchkeeper.internal.watch.http.HttpWatchApi;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class StubExampleTest {

    // tag::stub[]
    @RegisterExtension
    static KubeApiStub stub = new KubeApiStub();
    VirtualTime time = new VirtualTime();                // backoff waits take no real time
    EventRecorder<V1ConfigMap> recorder = new EventRecorder<>();

    @Test
    void paginatedInitialListThenWatch() {
        stub.on("/api/v1/namespaces/default/configmaps")
                .list(page(cm("a", "2")).continueToken("c1"))
                .list(page(cm("b", "3")).resourceVersion("3"))
                .watch(events(added(cm("c", "4"))).thenStayOpen());

        try (Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(stub.apiClient(), ResourceType.of(V1ConfigMap.class))
                .scope(WatchScope.namespace("default")).timeSource(time).build()) {
            watcher.addListener(recorder);
            watcher.start();

            assertThat(recorder.awaitEvents(5, Duration.ofSeconds(10)))
                    .containsExactly("Init", "InitApply(a)", "InitApply(b)", "InitDone", "Apply(c)");
        }
        assertThat(stub.watchRequests("/api/v1/namespaces/default/configmaps").get(0).resourceVersion())
                .isEqualTo("3");
    }
    // end::stub[]
}
