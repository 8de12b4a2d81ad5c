package dev.watchkeeper;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The runtime's shape: what an adopter may use lives outside {@code dev.watchkeeper.internal} and never leans on what
 * lives inside it, and no two packages depend on each other.
 */
class ArchitectureTest {

    private static final JavaClasses RUNTIME = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.watchkeeper");

    @Test
    void adopterFacingPackagesDoNotDependOnInternalOnes() {
        noClasses().that().resideOutsideOfPackage("dev.watchkeeper.internal..")
                .should().dependOnClassesThat().resideInAPackage("dev.watchkeeper.internal..")
                .because("the API outside dev.watchkeeper.internal is a promise to adopters; what it names must be"
                        + " promised too")
                .check(RUNTIME);
    }

    @Test
    void packagesFormNoCycle() {
        slices().matching("dev.watchkeeper.(**)").should().beFreeOfCycles().check(RUNTIME);
    }
}
