package dev.watchkeeper.test.readme;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/** The docs' snippets of this package are what adopters copy: they use the public API only. */
class ReadmeSnippetsUseTheApiTest {

    @Test
    void snippetsUseNoInternalType() {
        noClasses().should().dependOnClassesThat().resideInAPackage("dev.watchkeeper.internal..")
                .because("adopters copy the docs' snippets, and dev.watchkeeper.internal is no promise")
                .check(new ClassFileImporter().importPackages("dev.watchkeeper.test.readme"));
    }
}
