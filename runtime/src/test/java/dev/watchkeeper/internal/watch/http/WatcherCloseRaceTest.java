package dev.watchkeeper.internal.watch.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.internal.watch.InitialListStrategy;
import dev.watchkeeper.internal.watch.WatchOptions;
import dev.watchkeeper.internal.watch.WatchScope;
import dev.watchkeeper.internal.watch.Watcher;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * {@link Watcher#close()} from another thread while the watcher thread connects or reads a large list page or a large
 * streaming list over real HTTP: nothing may escape {@code close()} or the watcher thread, and nothing may be logged
 * at ERROR. Each test closes many watchers at random moments: a closer thread's task, scheduled a random 0–30 ms
 * after the start, calls {@code close()} while the test waits for that task to end. (Close interrupts the watcher thread; OkHttp 5 answered
 * an interrupt while connecting with an undeclared {@link InterruptedException} that ended the thread uncaught.)
 */
class WatcherCloseRaceTest {

    private static final String PATH = "/api/v1/namespaces/default/configmaps";
    private static final int OBJECTS = 3_000;
    private static final int ROUNDS = 150;
    private static final String PADDING = "x".repeat(400);

    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Queue<Throwable> uncaught = new ConcurrentLinkedQueue<>();
    private final CountDownLatch serverStops = new CountDownLatch(1);
    private final ScheduledExecutorService closer = Executors.newSingleThreadScheduledExecutor(run -> {
        Thread thread = new Thread(run, "watcher-closer");
        thread.setDaemon(true);
        return thread;
    });
    private HttpServer server;
    private ApiClient client;

    @BeforeEach
    void startServer() throws IOException {
        logged.start();
        root.addAppender(logged);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext(PATH, this::answer);
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
        client = new ApiClient().setBasePath("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @AfterEach
    void stopServer() {
        root.detachAppender(logged);
        closer.shutdownNow();
        serverStops.countDown();
        server.stop(0);
        client.getHttpClient().dispatcher().executorService().shutdown();
        client.getHttpClient().connectionPool().evictAll();
    }

    @Test
    void closingWhileAListPageIsReadLetsNothingEscape() throws Exception {
        closeRepeatedly(InitialListStrategy.LIST_WATCH);
    }

    @Test
    void closingWhileAStreamingListIsReadLetsNothingEscape() throws Exception {
        closeRepeatedly(InitialListStrategy.STREAMING);
    }

    private void closeRepeatedly(InitialListStrategy initialList) throws Exception {
        WatchOptions options = WatchOptions.defaults().withInitialList(initialList).withPageSize(OBJECTS);
        for (int round = 0; round < ROUNDS; round++) {
            Watcher<V1ConfigMap> watcher = HttpWatchApi.watcher(client,
                            ResourceType.of(V1ConfigMap.class).withPlural("configmaps", true))
                    .name("race-" + round)
                    .scope(WatchScope.namespace("default"))
                    .options(options)
                    .threadFactory(this::recordingThread)
                    .build();
            watcher.start();
            ScheduledFuture<?> closed = closer.schedule(() -> close(watcher),
                    ThreadLocalRandom.current().nextInt(30_000), TimeUnit.MICROSECONDS);
            closed.get(30, TimeUnit.SECONDS);
            assertThat(watcher.isRunning()).as("round %d: the watcher thread ended", round).isFalse();
        }
        assertThat(uncaught).as("exceptions out of close() or the watcher thread").isEmpty();
        assertThat(errorsLogged()).isEmpty();
    }

    private void close(Watcher<?> watcher) {
        try {
            watcher.close();
        } catch (RuntimeException escaped) {
            uncaught.add(escaped);
        }
    }

    private Thread recordingThread(Runnable run) {
        Thread thread = new Thread(run);
        thread.setUncaughtExceptionHandler((t, e) -> uncaught.add(e));
        return thread;
    }

    private List<String> errorsLogged() {
        return logged.list.stream()
                .filter(event -> event.getLevel().isGreaterOrEqual(Level.ERROR))
                .map(event -> event.getLoggerName() + ": " + event.getFormattedMessage()
                        + (event.getThrowableProxy() == null ? "" : " " + event.getThrowableProxy().getClassName()
                                + ": " + event.getThrowableProxy().getMessage()))
                .toList();
    }

    /** A list: one page of {@link #OBJECTS} items; a watch: as many ADDED events, the end bookmark, then idle. */
    private void answer(HttpExchange exchange) throws IOException {
        boolean watch = exchange.getRequestURI().getQuery().contains("watch=true");
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream body = exchange.getResponseBody()) {
            if (watch) {
                for (int i = 0; i < OBJECTS; i++) {
                    body.write(("{\"type\":\"ADDED\",\"object\":" + configMap(i) + "}\n")
                            .getBytes(StandardCharsets.UTF_8));
                }
                body.write(("{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\","
                        + "\"metadata\":{\"resourceVersion\":\"" + OBJECTS + "\",\"annotations\":"
                        + "{\"k8s.io/initial-events-end\":\"true\"}}}}\n").getBytes(StandardCharsets.UTF_8));
                body.flush();
                serverStops.await(30, TimeUnit.SECONDS);
            } else {
                body.write("{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\""
                        .concat(Integer.toString(OBJECTS)).concat("\"},\"items\":[")
                        .getBytes(StandardCharsets.UTF_8));
                for (int i = 0; i < OBJECTS; i++) {
                    body.write(((i == 0 ? "" : ",") + configMap(i)).getBytes(StandardCharsets.UTF_8));
                }
                body.write("]}".getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException | InterruptedException clientWentAway) {
            // the watcher was closed: expected
        } finally {
            exchange.close();
        }
    }

    private static String configMap(int i) {
        return "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"cm-" + i
                + "\",\"namespace\":\"default\",\"resourceVersion\":\"" + (i + 1) + "\"},\"data\":{\"k\":\""
                + PADDING + "\"}}";
    }
}
