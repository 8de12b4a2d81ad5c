package dev.watchkeeper.internal.events;

import java.io.IOException;
import java.net.InetAddress;
import java.util.Locale;
import java.util.Objects;

/**
 * Who writes an application's Events: {@code reportingController} is {@code <application>/<component>} (a
 * reconciler's name, or {@code leader-election}), {@code reportingInstance} the replica's identity as leader election
 * names it. Both are made valid for the API server, which checks {@code reportingController} as a qualified name and
 * caps {@code reportingInstance} at 128 characters.
 *
 * <pre>{@code
 * Reporter reporter = Reporter.of("sample-app", "sample-app-7d9f-x2k4q-1a2b3c4d");
 * reporter.controller("configmap-generator");   // "sample-app/configmap-generator"
 * }</pre>
 *
 * @param application a DNS subdomain: {@code spring.application.name} lower-cased, other characters made {@code -}
 * @param instance    at most 128 characters
 */
public record Reporter(String application, String instance) {

    private static final int INSTANCE_LIMIT = 128;
    private static final int SUBDOMAIN_LIMIT = 253;
    private static final int NAME_LIMIT = 63;

    public Reporter {
        Objects.requireNonNull(application, "application");
        Objects.requireNonNull(instance, "instance");
    }

    /** {@code application} and {@code instance} as the API server accepts them. */
    public static Reporter of(String application, String instance) {
        String subdomain = trim(application.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-"),
                SUBDOMAIN_LIMIT);
        String held = instance.length() > INSTANCE_LIMIT ? instance.substring(0, INSTANCE_LIMIT) : instance;
        return new Reporter(subdomain.isEmpty() ? "watchkeeper" : subdomain, held.isEmpty() ? "watchkeeper" : held);
    }

    /** {@code watchkeeper} on this host ({@code HOSTNAME}, a pod's name), for a recorder outside Spring Boot. */
    public static Reporter defaults() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                host = "watchkeeper";
            }
        }
        return of("watchkeeper", host);
    }

    /** The {@code reportingController} of {@code component}: {@code <application>/<component>}. */
    public String controller(String component) {
        String name = trim(component.replaceAll("[^A-Za-z0-9_.-]", "-"), NAME_LIMIT);
        return application + "/" + (name.isEmpty() ? "watchkeeper" : name);
    }

    /** At most {@code limit} characters, starting and ending with a letter or digit. */
    private static String trim(String text, int limit) {
        String cut = text.length() > limit ? text.substring(0, limit) : text;
        return cut.replaceAll("^[^A-Za-z0-9]+", "").replaceAll("[^A-Za-z0-9]+$", "");
    }
}
