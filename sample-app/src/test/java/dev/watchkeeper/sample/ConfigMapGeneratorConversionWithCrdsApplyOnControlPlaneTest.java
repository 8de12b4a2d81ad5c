package dev.watchkeeper.sample;

import java.util.Set;
import org.springframework.test.context.TestPropertySource;

/**
 * The same conversion when the starter also applies the CRD ({@code watchkeeper.crds.apply=true}): the registration
 * then applies the whole definition with the CA bundle, as one field manager's apply of the conversion alone would
 * remove the schema it applied at start-up.
 */
@TestPropertySource(properties = "watchkeeper.crds.apply=true")
class ConfigMapGeneratorConversionWithCrdsApplyOnControlPlaneTest
        extends ConfigMapGeneratorConversionOnControlPlaneTest {

    @Override
    Set<String> specFieldsTheStarterApplies() {
        return Set.of("f:conversion", "f:group", "f:names", "f:scope", "f:versions");
    }
}
