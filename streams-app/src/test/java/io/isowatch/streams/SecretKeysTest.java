package io.isowatch.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SecretKeysTest {
  @Test
  void shouldHideKafkasPasswordsWithOrWithoutAClientPrefix() {
    // Then
    assertTrue(SecretKeys.isSecret("sasl.jaas.config"));
    assertTrue(SecretKeys.isSecret("ssl.truststore.password"));
    assertTrue(SecretKeys.isSecret("producer.ssl.key.password"));
    assertTrue(SecretKeys.isSecret("main.consumer.sasl.jaas.config"));
    assertTrue(SecretKeys.isSecret("ssl.keystore.key"));
    assertTrue(SecretKeys.isSecret("sasl.oauthbearer.client.credentials.client.secret"));
    assertFalse(SecretKeys.isSecret("security.protocol"));
    assertFalse(SecretKeys.isSecret("ssl.truststore.location"));
    assertFalse(SecretKeys.isSecret("num.stream.threads"));
  }

  @Test
  void shouldDescribeTheConfigurationWithoutItsSecretsWhenLogged() throws Exception {
    // Given
    final IsoWatchStreamsConfig config = ConfigSources.load(Optional.empty(), Map.of(
        "ISOWATCH_KAFKA_SASL_JAAS_CONFIG", "org.apache.kafka.common.security.scram.ScramLoginModule required"
            + " username=\"u\" password=\"jaas-pw\";",
        "ISOWATCH_SCHEMA_REGISTRY_AUTH_PASSWORD", "registry-pw"), Map.of(
        "kafka.security.protocol", "SASL_SSL",
        "kafka.ssl.truststore.password", "trust-pw"));
    // When
    final String described = config.describe();
    // Then
    assertFalse(described.contains("jaas-pw"), described);
    assertFalse(described.contains("registry-pw"), described);
    assertFalse(described.contains("trust-pw"), described);
    assertTrue(described.contains("kafka.sasl.jaas.config=[hidden]"), described);
    assertTrue(described.contains("schema.registry.auth.password=[hidden]"), described);
    assertTrue(described.contains("kafka.security.protocol=SASL_SSL"), described);
    assertTrue(described.contains("bootstrap.servers=127.0.0.1:9092"), described);
  }

  @Test
  void shouldGiveEachClientTheSecuritySettingsAndItsOwnPrefixedOnes() throws Exception {
    // Given
    final IsoWatchStreamsConfig config = ConfigSources.load(Optional.empty(), Map.of(), Map.of(
        "kafka.security.protocol", "SASL_SSL",
        "kafka.sasl.mechanism", "SCRAM-SHA-512",
        "kafka.linger.ms", "1",
        "kafka.producer.linger.ms", "20",
        "kafka.consumer.max.poll.records", "10"));
    // When
    final Map<String, Object> producer = config.clientProperties("producer.");
    final Map<String, Object> admin = config.adminProperties();
    // Then
    assertEquals("SASL_SSL", producer.get("security.protocol"));
    assertEquals("SCRAM-SHA-512", producer.get("sasl.mechanism"));
    assertEquals("20", producer.get("linger.ms"));
    assertFalse(producer.containsKey("max.poll.records"));
    assertFalse(producer.containsKey("consumer.max.poll.records"));
    assertEquals("SASL_SSL", admin.get("security.protocol"));
    assertEquals("127.0.0.1:9092", admin.get("bootstrap.servers"));
  }
}
