package io.isowatch.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.apicurio.registry.resolver.SchemaResolverConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code isowatch agent --client-config}: the Kafka sink's security settings reach its clients. */
class AgentClientConfigTest {
  @TempDir Path dir;

  @Test
  void shouldGiveTheProducerAndTheRegistryClientTheFilesSecurityWhenPublishing() throws Exception {
    // Given
    final Path file = dir.resolve("client.properties");
    Files.writeString(file, String.join("\n",
        "bootstrap.servers=ignored:9092",
        "kafka.security.protocol=SASL_SSL",
        "kafka.sasl.mechanism=SCRAM-SHA-512",
        "kafka.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"a\" password=\"p\";",
        "kafka.ssl.truststore.location=/etc/isowatch/truststore.jks",
        "kafka.producer.linger.ms=50",
        "kafka.consumer.max.poll.records=7",
        "schema.registry.auth.username=agent",
        "schema.registry.auth.password=registry-pw",
        ""));
    final AgentCommand agent = new AgentCommand();
    new CommandLine(agent).parseArgs("--target", "h2", "--kafka", "broker:9093", "--registry", "https://registry:8443",
        "--tenant", "acme", "--client-config", file.toString());
    // When
    final AgentCommand.KafkaClient client = agent.kafkaClient();
    // Then: the flags win over the file, security reaches the producer ...
    assertEquals("broker:9093", client.bootstrap());
    final Map<String, Object> producer = client.producerProperties();
    assertEquals("broker:9093", producer.get("bootstrap.servers"));
    assertEquals("SASL_SSL", producer.get("security.protocol"));
    assertEquals("SCRAM-SHA-512", producer.get("sasl.mechanism"));
    assertTrue(String.valueOf(producer.get("sasl.jaas.config")).contains("ScramLoginModule"));
    assertEquals("/etc/isowatch/truststore.jks", producer.get("ssl.truststore.location"));
    assertEquals("50", producer.get("linger.ms"));
    assertFalse(producer.containsKey("max.poll.records"));
    // ... and the registry client, which is production (no --dev) and authenticated.
    assertFalse(client.serde().autoRegister());
    assertEquals("https://registry:8443/apis/registry/v2", client.serde().apiUrl());
    assertEquals("agent", client.serde().serdeProperties().get(SchemaResolverConfig.AUTH_USERNAME));
    assertEquals("registry-pw", client.serde().serdeProperties().get(SchemaResolverConfig.AUTH_PASSWORD));
  }

  @Test
  void shouldRefuseWhenTheClientConfigIsMissing() {
    // Given
    final AgentCommand agent = new AgentCommand();
    new CommandLine(agent).parseArgs("--target", "h2", "--kafka", "broker:9093", "--registry", "http://r:8081",
        "--tenant", "acme", "--client-config", dir.resolve("missing.properties").toString());
    // When / Then
    final CommandLine.ParameterException e = assertThrows(CommandLine.ParameterException.class, agent::kafkaClient);
    assertTrue(e.getMessage().contains("cannot read --client-config"), e.getMessage());
  }
}
