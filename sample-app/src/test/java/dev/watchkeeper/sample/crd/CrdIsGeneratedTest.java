package dev.watchkeeper.sample.crd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.crd.CustomResourceDefinitions;
import dev.watchkeeper.sample.generator.ConfigMapGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/01-crd.yaml} is the CRD generated from {@link ConfigMapGenerator} and its other version, converted
 * by the Service of {@link DeployedConversion}: when a class changes, the fresh file is written to
 * {@code target/01-crd.yaml}, so updating the manifest is a copy.
 */
class CrdIsGeneratedTest {

    static final Path DEPLOYED = Path.of("deploy/01-crd.yaml");
    static final Path FRESH = Path.of("target/01-crd.yaml");

    @Test
    void theDeployedCrdIsTheGeneratedOne() throws IOException {
        String generated = CustomResourceDefinitions.yaml(ConfigMapGenerator.class, DeployedConversion.clientConfig());
        String deployed = Files.readString(DEPLOYED);
        if (!generated.equals(deployed)) {
            Files.writeString(FRESH, generated);
        }
        assertThat(deployed).as("%s against the CRD generated from ConfigMapGenerator; copy %s over it", DEPLOYED,
                FRESH.toAbsolutePath().normalize()).isEqualTo(generated);
    }
}
