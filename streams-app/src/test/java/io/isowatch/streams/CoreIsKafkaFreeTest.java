package io.isowatch.streams;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The checker core must not depend on Kafka: the offline CLI and the Streams topology both call it,
 * and processors only adapt records to it (see {@code package-info}).
 */
class CoreIsKafkaFreeTest {
  private static ArchRule kafkaFree(final String packages) {
    return noClasses().that().resideInAPackage(packages)
        .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
        .because("the checker core is shared by the offline CLI and the Streams app");
  }

  @Test
  void shouldFindNoKafkaDependencyWhenImportingTheCore() {
    // Given
    final JavaClasses core = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        // Under `mvn verify` the reactor hands over core's test jar (core-…-tests.jar, with the
        // test-scope oracle), which DO_NOT_INCLUDE_TESTS does not recognise: only main code counts.
        .withImportOption(location -> !location.contains("-tests.jar"))
        .importPackages("io.isowatch.core");

    // When / Then
    // Guards against a vacuous pass: an importer that found nothing would satisfy any "no classes" rule.
    assertTrue(core.size() > 10, "only " + core.size() + " core classes imported");
    assertTrue(core.contain("io.isowatch.core.online.OnlineChecker"), "OnlineChecker not imported");
    // One engine in main: the batch checker is a test-scope differential oracle.
    assertFalse(core.contain("io.isowatch.core.check.Checker"), "the batch Checker is in main code");
    kafkaFree("io.isowatch.core..").check(core);
  }

  @Test
  void shouldReportTheDependencyWhenAClassUsesKafka() {
    // Given
    final JavaClasses fixture = new ClassFileImporter().importPackages("io.isowatch.streams.archfixture");

    // When / Then
    final AssertionError e = assertThrows(AssertionError.class, () -> kafkaFree("io.isowatch.streams.archfixture..").check(fixture));
    assertTrue(e.getMessage().contains("org.apache.kafka.common.TopicPartition"), e.getMessage());
  }
}
