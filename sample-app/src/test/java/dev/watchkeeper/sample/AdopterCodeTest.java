package dev.watchkeeper.sample;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/**
 * The sample and the README's snippets (package {@code dev.watchkeeper.readme}) are what adopters copy: they use the
 * public API only.
 */
class AdopterCodeTest {

    @Test
    void sampleAndReadmeSnippetsUseNoInternalType() {
        noClasses().should().dependOnClassesThat().resideInAPackage("dev.watchkeeper.internal..")
                .because("adopters copy the sample and the README, and dev.watchkeeper.internal is no promise")
                .check(new ClassFileImporter().importPackages("dev.watchkeeper.sample", "dev.watchkeeper.readme"));
    }
}
