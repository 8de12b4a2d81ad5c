package dev.watchkeeper.autoconfigure;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * Turns a {@link WatchkeeperPropertyException} into Boot's "APPLICATION FAILED TO START" report: the property, its
 * value as written ({@code -1s}, not the bound {@code PT-1S}) and where it was written, read from the
 * {@link Environment}, then the reason and what to do. Registered in {@code META-INF/spring.factories}.
 *
 * <pre>
 * Watchkeeper cannot start with this property:
 *
 *     Property: watchkeeper.backoff.initial-interval
 *     Value: "-1s"
 *     Origin: class path resource [application.properties] - 3:38
 *     Reason: must be positive
 * </pre>
 */
class WatchkeeperPropertyFailureAnalyzer extends AbstractFailureAnalyzer<WatchkeeperPropertyException> {

    private final Environment environment;

    WatchkeeperPropertyFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, WatchkeeperPropertyException cause) {
        ConfigurationProperty written = asWritten(cause.property());
        StringBuilder description = new StringBuilder("Watchkeeper cannot start with this property:\n\n");
        description.append("    Property: ").append(cause.property()).append('\n');
        if (written != null) {
            description.append("    Value: \"").append(written.getValue()).append("\"\n");
            if (written.getOrigin() != null) {
                description.append("    Origin: ").append(written.getOrigin()).append('\n');
            }
        } else if (cause.value() != null) {
            description.append("    Value: ").append(cause.value()).append(" (not written anywhere: the default)\n");
        }
        description.append("    Reason: ").append(cause.reason());
        return new FailureAnalysis(description.toString(), cause.action(), cause);
    }

    /** The property as the configuration holds it, with relaxed names (an environment variable, say). */
    private ConfigurationProperty asWritten(String property) {
        if (!(environment instanceof ConfigurableEnvironment configurable)) {
            return null;
        }
        ConfigurationPropertyName name = ConfigurationPropertyName.adapt(property, '.');
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(configurable)) {
            ConfigurationProperty found = source.getConfigurationProperty(name);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
