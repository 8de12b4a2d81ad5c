package dev.watchkeeper.readme;

import static dev.watchkeeper.test.stub.Replies.added;
import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.events;
import static dev.watchkeeper.test.stub.Replies.page;
import static dev.watchkeeper.test.stub.Replies.serviceUnavailable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.registry.WatchkeeperState;
import dev.watchkeeper.test.boot.AutoConfigureKubeApiStub;
import dev.watchkeeper.test.boot.KubeApiStubCustomizer;
import dev.watchkeeper.test.stub.KubeApiStub;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

// tag::stub[]
@SpringBootTest
@AutoConfigureKubeApiStub
class StubbedReconcilerTest {

    static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

    @TestConfiguration
    static class Script {

        @Bean           // applied before the application's first request
        KubeApiStubCustomizer configMaps() {
            return stub -> stub.on(CONFIGMAPS)
                    .list(serviceUnavailable())                        // the first list fails: back off, list again
                    .list(page(cm("a", "2")).continueToken("c1"))      // two pages
                    .list(page(cm("b", "3")).resourceVersion("3"))
                    .watch(events(added(cm("c", "4"))).thenStayOpen());
        }

        @Bean
        Seen seen() {
            return new Seen();
        }
    }

    static class Seen {

        final Set<String> names = ConcurrentHashMap.newKeySet();

        @Reconciler(name = "seen", namespace = "default")
        void reconcile(V1ConfigMap configMap) {
            names.add(configMap.getMetadata().getName());
        }
    }

    @Autowired
    KubeApiStub stub;

    @Autowired
    WatchkeeperState state;

    @Autowired
    Seen seen;

    @Test
    void reconcilesWhatTheListsAndTheWatchBring() {
        await().until(() -> seen.names.containsAll(Set.of("a", "b", "c")));

        assertThat(state.watcherSnapshot("configmaps@default").orElseThrow().counts().errors()).isEqualTo(1);
        assertThat(stub.watchRequests(CONFIGMAPS).get(0).resourceVersion()).isEqualTo("3");
        stub.assertScriptConsumed();
    }
}
// end::stub[]
