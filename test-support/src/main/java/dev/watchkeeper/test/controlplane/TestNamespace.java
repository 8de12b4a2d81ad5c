package dev.watchkeeper.test.controlplane;

/** The namespace a {@link RealKubeApi} test class owns on the real control plane. */
public record TestNamespace(String name) {
}
