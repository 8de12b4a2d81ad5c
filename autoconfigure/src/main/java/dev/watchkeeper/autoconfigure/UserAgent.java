package dev.watchkeeper.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.springframework.core.env.Environment;

/**
 * The default {@code User-Agent} of Watchkeeper's client, which the API server's audit log records:
 * {@code my-operator/1.2.0 watchkeeper/0.1.0} (the application's {@code spring.application.name}, its
 * {@code spring.application.version} or {@code unknown}, then Watchkeeper's version), or {@code watchkeeper/0.1.0}
 * without a name. The application's name comes first and is followed by a {@code /} because the API server takes
 * what precedes the first {@code /} as the field manager of a write that names none: there it is the application.
 */
final class UserAgent {

    /** Watchkeeper's version, written into this resource by the build. */
    static final String VERSION = version("watchkeeper.properties");

    private UserAgent() {
    }

    static String of(Environment environment) {
        String name = environment.getProperty("spring.application.name");
        String watchkeeper = "watchkeeper/" + VERSION;
        return name == null || name.isBlank() ? watchkeeper
                : name + "/" + environment.getProperty("spring.application.version", "unknown") + " " + watchkeeper;
    }

    private static String version(String resource) {
        try (InputStream in = UserAgent.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing beside " + UserAgent.class.getName()
                        + ": the build writes it (resource filtering in autoconfigure/pom.xml)");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}
