package dev.watchkeeper.sample.crd;

import dev.watchkeeper.test.boot.AutoConfigureInMemoryKubeApi;

/**
 * The generated CRD on the in-memory server, which serves it but checks no schema: it drops unknown fields, yet takes
 * a value that breaks a bound or a CEL rule, so those are tested on the real control plane only.
 */
@AutoConfigureInMemoryKubeApi
class GeneratedCrdOnInMemoryServerTest extends GeneratedCrdScenario {
}
