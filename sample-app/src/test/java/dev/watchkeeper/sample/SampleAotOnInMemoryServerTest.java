package dev.watchkeeper.sample;

import java.util.List;
import org.junit.jupiter.api.Tag;

/**
 * The end-to-end scenario with the packaged jar in Spring AOT mode: the bean definitions {@code process-aot}
 * generated at build time (with the embedded profile's beans present) run the cluster profile. Tagged {@code aot}:
 * it runs in the {@code integration-test} phase, once the jar exists (sample-app/pom.xml).
 */
@Tag("aot")
class SampleAotOnInMemoryServerTest extends SampleOnInMemoryServerTest {

    SampleAotOnInMemoryServerTest() throws Exception {
    }

    @Override
    List<String> launcher() {
        return SampleProcess.AOT_JAR;
    }
}
