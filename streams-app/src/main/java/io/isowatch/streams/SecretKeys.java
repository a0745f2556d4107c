package io.isowatch.streams;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Which passthrough settings ({@code kafka.*}) are secrets, so that IsoWatch's own log lines show
 * them as {@code [hidden]}, as Kafka's clients do for theirs: every key Kafka's producer, consumer,
 * admin and Streams configurations declare with type {@link ConfigDef.Type#PASSWORD} (e.g. {@code
 * sasl.jaas.config}, {@code ssl.keystore.password}), also under a client prefix ({@code
 * producer.sasl.jaas.config}), and, to be safe with keys Kafka does not declare, any key whose
 * name mentions a password, secret, token, credential or JAAS.
 */
public final class SecretKeys {
  /** What a secret prints as, Kafka's own {@code Password.toString()}. */
  public static final String HIDDEN = "[hidden]";

  private static final Pattern SECRET_WORDS = Pattern.compile("password|secret|token|credential|jaas|\\.key$");
  private static final Set<String> KAFKA_PASSWORDS = kafkaPasswordKeys();

  private SecretKeys() {}

  /** Whether the value of the passthrough key {@code key} (prefix {@code kafka.} removed) is secret. */
  public static boolean isSecret(final String key) {
    final String k = key.toLowerCase(Locale.ROOT);
    if (SECRET_WORDS.matcher(k).find()) {
      return true;
    }
    for (final String secret : KAFKA_PASSWORDS) {
      if (k.equals(secret) || k.endsWith("." + secret)) {
        return true;
      }
    }
    return false;
  }

  private static Set<String> kafkaPasswordKeys() {
    final Set<String> out = new HashSet<>();
    for (final ConfigDef def : List.of(ProducerConfig.configDef(), ConsumerConfig.configDef(),
        AdminClientConfig.configDef(), StreamsConfig.configDef())) {
      def.configKeys().forEach((name, key) -> {
        if (key.type == ConfigDef.Type.PASSWORD) {
          out.add(name);
        }
      });
    }
    return Set.copyOf(out);
  }
}
