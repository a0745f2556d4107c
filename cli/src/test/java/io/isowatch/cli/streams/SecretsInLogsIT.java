package io.isowatch.cli.streams;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.testkit.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * No secret reaches the log: {@code isowatch run} in a child JVM, configured with passwords in its
 * file and its environment, Kafka's own client logging turned up to INFO (its configuration dumps),
 * runs until RUNNING and stops; its whole output is searched for the secrets. The broker is
 * PLAINTEXT, so the SASL and TLS settings are carried and logged but not used.
 */
@Tag("integration")
class SecretsInLogsIT {
  @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();

  private static final List<String> SECRETS = List.of(
      "RegistrySecret-1", "JaasSecret-2", "TrustSecret-3", "KeySecret-4", "EnvSecret-5");

  @TempDir Path dir;

  @Test
  void shouldShowSecretsAsHiddenWhenTheCheckerLogsItsConfiguration() throws Exception {
    // Given
    KAFKA.createTopics(Topics.defaults().all());
    final Path config = dir.resolve("checker.properties");
    Files.writeString(config, String.join("\n",
        "bootstrap.servers=" + KAFKA.bootstrapServers(),
        "schema.registry.url=http://127.0.0.1:8081",
        "schema.registry.auth.username=isowatch",
        "schema.registry.auth.password=RegistrySecret-1",
        "application.id=secrets-it",
        "state.dir=" + dir.resolve("state"),
        "http.port=-1",
        "kafka.sasl.mechanism=SCRAM-SHA-512",
        "kafka.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required"
            + " username=\"isowatch\" password=\"JaasSecret-2\";",
        "kafka.ssl.truststore.password=TrustSecret-3",
        "kafka.producer.ssl.key.password=KeySecret-4",
        ""));
    final Path log = dir.resolve("run.log");
    final String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    final ProcessBuilder pb = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-Xmx256m",
        "-Dorg.slf4j.simpleLogger.log.org.apache.kafka=info",
        "-cp", classPath, "io.isowatch.cli.Main", "run", "--config", config.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("ISOWATCH_SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD", "EnvSecret-5");
    // When: it starts, runs and is stopped with SIGTERM.
    final Process p = pb.start();
    try {
      await().atMost(Duration.ofSeconds(120)).until(() ->
          Files.readString(log, StandardCharsets.UTF_8).contains("from=[REBALANCING] to=[RUNNING]"));
    } finally {
      p.destroy();
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the checker stops on SIGTERM");
    }
    // Then
    final String output = Files.readString(log, StandardCharsets.UTF_8);
    for (final String secret : SECRETS) {
      assertFalse(output.contains(secret), secret + " is in the log:\n" + output);
    }
    assertTrue(output.contains("IsoWatch configuration {"), output);
    assertTrue(output.contains("schema.registry.auth.password=[hidden]"), output);
    assertTrue(output.contains("schema.registry.ssl.keystore.password=[hidden]"), output);
    assertTrue(output.contains("kafka.sasl.jaas.config=[hidden]"), output);
    assertTrue(output.contains("kafka.producer.ssl.key.password=[hidden]"), output);
    // Kafka's own configuration dumps ran and hid theirs.
    assertTrue(output.contains("sasl.jaas.config = [hidden]"), output);
    assertEquals(143, p.exitValue(), output);
  }
}
