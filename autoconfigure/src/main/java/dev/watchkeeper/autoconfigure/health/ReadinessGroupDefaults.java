package dev.watchkeeper.autoconfigure.health;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Puts the {@code watchkeeperReadiness} indicator into the {@code readiness} health group by default
 * ({@code management.endpoint.health.group.readiness.include=readinessState,watchkeeperReadiness} at the lowest
 * precedence), so {@code /actuator/health/readiness} waits for every watcher's first sync while Boot's own
 * {@code readinessState} still counts. An application that sets the group's members itself keeps its own list;
 * {@code watchkeeper.readiness.wait-for-sync=false} leaves the group alone.
 */
public class ReadinessGroupDefaults implements EnvironmentPostProcessor {

    static final String INCLUDE = "management.endpoint.health.group.readiness.include";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        boolean wait = environment.getProperty("watchkeeper.readiness.wait-for-sync", Boolean.class, true);
        boolean enabled = environment.getProperty("watchkeeper.enabled", Boolean.class, true);
        if (wait && enabled && !environment.containsProperty(INCLUDE)) {
            environment.getPropertySources().addLast(new MapPropertySource("watchkeeperReadinessDefaults",
                    Map.of(INCLUDE, "readinessState,watchkeeperReadiness")));
        }
    }
}
