package dev.watchkeeper.test.apiserver;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class WatchOverHttpTest {

    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

    private InMemoryApiServer server;
    private RawHttp http;

    @BeforeEach
    void start() {
        server = InMemoryApiServer.builder().bookmarkInterval(Duration.ofMillis(100)).build().start();
        http = new RawHttp(server);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private V1ConfigMap create(String name, Map<String, String> labels) {
        return server.create(new V1ConfigMap().metadata(new V1ObjectMeta().name(name).namespace("default")
                .labels(labels)));
    }

    private void relabel(String name, Map<String, String> labels) {
        V1ConfigMap current = server.get(V1ConfigMap.class, "default", name).orElseThrow();
        current.getMetadata().setLabels(labels);
        server.update(current);
    }

    @Test
    void replaysFromAResourceVersionThenStreamsLiveEvents() {
        create("a", Map.of());
        String afterA = server.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("b").namespace("default")))
                .getMetadata().getResourceVersion();
        relabel("a", Map.of("x", "y"));
        server.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("elsewhere").namespace("other")));

        RawHttp.Watch watch = http.watch(CONFIGMAPS + "?watch=true&resourceVersion=" + afterA);
        await().until(() -> watch.changes().size() == 1);
        assertThat(watch.changes()).containsExactly("MODIFIED:a");

        server.delete("", "configmaps", "default", "b");
        await().until(() -> watch.changes().size() == 2);
        assertThat(watch.changes()).containsExactly("MODIFIED:a", "DELETED:b");
        assertThat(watch.status).isEqualTo(200);
        watch.cancel();
    }

    @Test
    void unsetResourceVersionStartsWithSyntheticAdds() {
        create("a", Map.of());
        create("b", Map.of());
        RawHttp.Watch watch = http.watch("/api/v1/configmaps?watch=1");
        await().until(() -> watch.changes().size() == 2);
        create("c", Map.of());
        await().until(() -> watch.changes().size() == 3);
        assertThat(watch.changes()).containsExactly("ADDED:a", "ADDED:b", "ADDED:c");
        watch.cancel();
    }

    @Test
    void bookmarksAndTimeoutEndTheStreamNormally() {
        create("a", Map.of());
        long now = server.resourceVersion();
        RawHttp.Watch watch = http.watch(CONFIGMAPS + "?watch=true&allowWatchBookmarks=true&timeoutSeconds=1"
                + "&resourceVersion=" + now);
        await().atMost(Duration.ofSeconds(5)).until(() -> watch.ended);
        assertThat(watch.response.join()).isEqualTo(200);
        assertThat(watch.types()).isNotEmpty().containsOnly("BOOKMARK");
        JsonObject bookmark = watch.events.get(watch.events.size() - 1).getAsJsonObject("object");
        assertThat(bookmark.get("kind").getAsString()).isEqualTo("ConfigMap");
        assertThat(bookmark.get("apiVersion").getAsString()).isEqualTo("v1");
        assertThat(bookmark.getAsJsonObject("metadata").get("resourceVersion").getAsString())
                .isEqualTo(Long.toString(now));
        await().until(() -> server.openWatches() == 0);
    }

    @Test
    void sendInitialEventsEndsWithTheInitialEventsEndBookmark() {
        create("a", Map.of());
        create("b", Map.of());
        RawHttp.Watch watch = http.watch(CONFIGMAPS + "?watch=true&allowWatchBookmarks=true&sendInitialEvents=true"
                + "&resourceVersionMatch=NotOlderThan&resourceVersion=");
        await().until(() -> watch.events.size() >= 3);
        assertThat(watch.types().subList(0, 3)).containsExactly("ADDED", "ADDED", "BOOKMARK");
        JsonObject metadata = watch.events.get(2).getAsJsonObject("object").getAsJsonObject("metadata");
        assertThat(metadata.getAsJsonObject("annotations").get("k8s.io/initial-events-end").getAsString())
                .isEqualTo("true");
        assertThat(metadata.get("resourceVersion").getAsString())
                .isEqualTo(Long.toString(server.resourceVersion()));
        watch.cancel();

        assertThat(http.get(CONFIGMAPS + "?watch=true&sendInitialEvents=true").statusCode()).isEqualTo(400);
    }

    @Test
    void oldResourceVersionAfterCompactionGetsAnExpiredError() {
        String old = create("a", Map.of()).getMetadata().getResourceVersion();
        create("b", Map.of());
        server.compact();
        RawHttp.Watch watch = http.watch(CONFIGMAPS + "?watch=true&resourceVersion=" + old);
        await().until(() -> watch.ended);
        assertThat(watch.response.join()).isEqualTo(200);
        assertThat(watch.types()).containsExactly("ERROR");
        JsonObject status = watch.events.get(0).getAsJsonObject("object");
        assertThat(status.get("code").getAsInt()).isEqualTo(410);
        assertThat(status.get("reason").getAsString()).isEqualTo("Expired");
        assertThat(status.get("message").getAsString())
                .isEqualTo("too old resource version: " + old + " (" + server.resourceVersion() + ")");
    }

    @Test
    void compactionExpiresOpenWatchesAndCloseWatchesEndsThem() {
        RawHttp.Watch expired = http.watch(CONFIGMAPS + "?watch=true&resourceVersion=" + server.resourceVersion());
        await().until(() -> server.openWatches() == 1);
        server.compact();
        await().until(() -> expired.ended);
        assertThat(expired.types()).containsExactly("ERROR");

        RawHttp.Watch closed = http.watch(CONFIGMAPS + "?watch=true&resourceVersion=" + server.resourceVersion());
        await().until(() -> server.openWatches() == 1);
        server.closeWatches();
        await().until(() -> closed.ended);
        assertThat(closed.events).isEmpty();
    }

    @Test
    void selectorsFilterAndTurnLabelChangesIntoAddsAndDeletes() {
        create("web", Map.of("app", "web"));
        create("db", Map.of("app", "db"));
        RawHttp.Watch watch = http.watch(CONFIGMAPS + "?watch=true&labelSelector=app%3Dweb");
        await().until(() -> watch.changes().size() == 1);
        relabel("db", Map.of("app", "web"));
        relabel("web", Map.of("app", "gone"));
        relabel("db", Map.of("app", "web", "extra", "1"));
        create("other", Map.of());
        server.delete("", "configmaps", "default", "db");
        await().until(() -> watch.changes().size() == 5);
        assertThat(watch.changes()).containsExactly("ADDED:web", "ADDED:db", "DELETED:web", "MODIFIED:db",
                "DELETED:db");
        watch.cancel();

        RawHttp.Watch byName = http.watch("/api/v1/configmaps?watch=true&fieldSelector=metadata.name%3Dother");
        await().until(() -> byName.changes().size() == 1);
        assertThat(byName.changes()).containsExactly("ADDED:other");
        byName.cancel();
    }

    @Test
    void historyLimitExpiresOldVersions() {
        try (InMemoryApiServer small = InMemoryApiServer.builder().historyLimit(2).build().start()) {
            String first = small.create(new V1ConfigMap().metadata(new V1ObjectMeta().name("a").namespace("d")))
                    .getMetadata().getResourceVersion();
            for (String name : new String[] {"b", "c", "e"}) {
                small.create(new V1ConfigMap().metadata(new V1ObjectMeta().name(name).namespace("d")));
            }
            RawHttp.Watch watch = new RawHttp(small).watch("/api/v1/configmaps?watch=true&resourceVersion=" + first);
            await().until(() -> watch.ended);
            assertThat(watch.types()).containsExactly("ERROR");
        }
    }
}
