package io.isowatch.streams;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Dependencies between the core's packages that the code relies on (docs/architecture.md): the
 * engine ({@code online}) does not depend on the file formats ({@code format}), and the
 * diagnostics every package may call ({@code debug}, e.g. {@code DebugTimings}) depend on no other
 * IsoWatch package, so that calling them adds no dependency.
 */
class CoreLayeringTest {
  private static JavaClasses imported;

  // Imported once for both rules: importing the core takes tens of seconds on a loaded machine.
  private static synchronized JavaClasses core() {
    if (imported != null) {
      return imported;
    }
    final JavaClasses core = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        // As in CoreIsKafkaFreeTest: under `mvn verify` core's test jar is handed over too.
        .withImportOption(location -> !location.contains("-tests.jar"))
        .importPackages("io.isowatch.core");
    // Guards against a vacuous pass: an importer that found nothing would satisfy any rule.
    assertTrue(core.contain("io.isowatch.core.online.WholeHistoryCheck"), "WholeHistoryCheck not imported");
    assertTrue(core.contain("io.isowatch.core.debug.DebugTimings"), "DebugTimings not imported");
    assertTrue(core.contain("io.isowatch.core.format.HistoryIO"), "HistoryIO not imported");
    imported = core;
    return core;
  }

  @Test
  void shouldFindNoDependencyOfTheEngineOnTheFileFormats() {
    noClasses().that().resideInAPackage("io.isowatch.core.online..")
        .should().dependOnClassesThat().resideInAPackage("io.isowatch.core.format..")
        .because("the engine checks histories; reading files is the formats' business")
        .check(core());
  }

  @Test
  void shouldFindNoDependencyOfTheDiagnosticsOnAnyOtherIsoWatchPackage() {
    classes().that().resideInAPackage("io.isowatch.core.debug..")
        .should().onlyDependOnClassesThat(
            resideOutsideOfPackage("io.isowatch..").or(resideInAPackage("io.isowatch.core.debug..")))
        .because("every package may call the diagnostics without depending on another")
        .check(core());
  }
}
