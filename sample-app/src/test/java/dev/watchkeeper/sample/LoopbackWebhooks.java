package dev.watchkeeper.sample;

import dev.watchkeeper.test.controlplane.KubeControlPlane;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The sample on the real control plane with its webhooks on a free loopback port, registered at that URL: what a
 * test sets to start it as the sample's contract says, with the sample's CRD installed.
 */
final class LoopbackWebhooks {

    private LoopbackWebhooks() {
    }

    /** Applies the sample's CRD ({@code deploy/01-crd.yaml}). */
    static void installCrd(KubeControlPlane plane) {
        plane.kubectl("apply", "-f", Path.of("deploy", "01-crd.yaml").toAbsolutePath().toString());
    }

    /** The sample's namespace, and its webhooks served on {@code port} and registered at their loopback URL. */
    static void register(DynamicPropertyRegistry registry, Supplier<String> namespace, int port) {
        registry.add("sample.namespace", namespace::get);
        registry.add("watchkeeper.webhooks.port", () -> port);
        registry.add("watchkeeper.webhooks.url", () -> "https://127.0.0.1:" + port);
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
