package dev.watchkeeper.sample.embedded;

import com.google.gson.JsonObject;
import dev.watchkeeper.registry.WatchkeeperState;
import dev.watchkeeper.sample.generator.ConfigMapGenerator;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.watch.WatcherSnapshot;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * What the embedded mode demonstrates, driven on the embedded API server from a timer, one log line per phase:
 * the CRD is missing at start (the watcher backs off), then appears with two generators (recovery, ConfigMaps
 * created), a spec edit (generation 2), a 30 s outage (the backoff grows, then recovery), and after the reset
 * timer's 2 min of quiet a short outage whose backoff starts again at the initial interval. Not with the
 * {@code cluster} profile or {@code sample.demo.enabled=false}, checked when the application is ready (under Spring
 * AOT this bean exists whatever the profile).
 */
@Component
public class DemoTimeline implements DisposableBean {

    static final String NAMESPACE = "default";
    static final String RECONCILER = "configmap-generator";

    private static final Logger log = LoggerFactory.getLogger(DemoTimeline.class);

    private final ObjectProvider<InMemoryApiServer> embedded;
    private final Environment environment;
    private final WatchkeeperState state;
    private final DemoProperties demo;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "demo-timeline");
        thread.setDaemon(true);
        return thread;
    });

    private InMemoryApiServer server;

    public DemoTimeline(ObjectProvider<InMemoryApiServer> embedded, Environment environment, WatchkeeperState state,
            DemoProperties demo) {
        this.embedded = embedded;
        this.environment = environment;
        this.state = state;
        this.demo = demo;
    }

    @EventListener(ApplicationReadyEvent.class)
    public void start() {
        if (!demo.enabled() || environment.matchesProfiles(EmbeddedApiServerConfiguration.CLUSTER)) {
            return;
        }
        server = embedded.getObject();
        // narrated after the first attempts, so the line shows the backoff
        at(Duration.ofSeconds(3), () -> log.info("Demo 1/6: CRD {}.{} not installed, so its watcher backs off: {}"
                + " (curl localhost:8080/actuator/watchkeeper)", ConfigMapGenerator.PLURAL, ConfigMapGenerator.GROUP,
                state()));
        at(demo.installAt(), this::install);
        at(demo.editAt(), this::edit);
        at(demo.outageAt(), () -> server.outage(demo.outage()));
        // narrated a few seconds in, so the line shows the first failures
        at(demo.outageAt().plus(Duration.ofSeconds(5)), () -> log.info("Demo 4/6: API outage for {} s, every"
                + " request answers 503; the backoff grows from where it was (the reset timer restarts it only after"
                + " 2 min without failures): {}", demo.outage().toSeconds(), state()));
        at(demo.outageAt().plus(demo.outage()), () -> log.info("Demo 5/6: outage over; each watcher recovers at its"
                + " next attempt, its backoff grown meanwhile: {}", state()));
        at(demo.shortOutageAt(), () -> {
            server.outage(demo.shortOutage());
            log.info("Demo 6/6: a {} s outage after more than 2 min without failures: the reset timer starts the"
                    + " backoff over at the initial interval (0.8 s plus jitter)", demo.shortOutage().toSeconds());
        });
        at(demo.shortOutageAt().plus(Duration.ofSeconds(2)), () -> log.info("Demo: backing off from the initial"
                + " interval again: {}; the demo is over, the controller keeps running", state()));
    }

    private void install() {
        server.createCustomResourceDefinition(ConfigMapGenerator.GROUP, ConfigMapGenerator.VERSION,
                ConfigMapGenerator.PLURAL, ConfigMapGenerator.KIND, true);
        ConfigMapGenerator greetings = ConfigMapGenerator.of(NAMESPACE, "greetings", Map.of("greeting", "hello"));
        greetings.getSpec().replicas(2);
        ConfigMapGenerator settings = ConfigMapGenerator.of(NAMESPACE, "settings", Map.of("log-level", "info"));
        settings.getSpec().namePrefix("app-settings");
        server.create(greetings);
        server.create(settings);
        log.info("Demo 2/6: installed the CRD and generators default/greetings (2 replicas) and default/settings"
                + " (1); the watcher recovers at its next attempt ({}), then 3 ConfigMaps are created", state());
    }

    private void edit() {
        JsonObject greetings = server.get(ConfigMapGenerator.GROUP, ConfigMapGenerator.PLURAL, NAMESPACE, "greetings")
                .orElseThrow();
        JsonObject spec = greetings.getAsJsonObject("spec");
        spec.addProperty("replicas", 3);
        spec.getAsJsonObject("content").addProperty("greeting", "hello again");
        server.update(greetings);
        log.info("Demo 3/6: edited default/greetings (3 replicas, new greeting): generation 2, so the ConfigMaps"
                + " are updated, a third one created, and status.observedGeneration follows");
    }

    /** The generator watcher's phase, failures and current delay, for the narration. */
    private String state() {
        return state.reconcilerSnapshot(RECONCILER)
                .flatMap(reconciler -> state.watcherSnapshot(reconciler.primaryWatcher()))
                .map(DemoTimeline::describe).orElse("no watcher yet");
    }

    private static String describe(WatcherSnapshot s) {
        return s.name() + " " + s.phase() + ", " + s.consecutiveFailures() + " consecutive failure"
                + (s.consecutiveFailures() == 1 ? "" : "s")
                + (s.currentDelay() == null ? "" : ", current delay " + s.currentDelay().toMillis() + " ms");
    }

    private void at(Duration sinceStart, Runnable step) {
        timer.schedule(() -> {
            try {
                step.run();
            } catch (RuntimeException e) {
                log.warn("Demo step failed", e);
            }
        }, sinceStart.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void destroy() {
        timer.shutdownNow();
    }
}
