package io.isowatch.schemas.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Merges IsoWatch's configuration sources, lowest precedence first:
 *
 * <ol>
 *   <li>the defaults of the {@link ConfigDef};
 *   <li>a properties file ({@code --config FILE}, {@link java.util.Properties} syntax);
 *   <li>the environment: for each declared key its variable ({@code ISOWATCH_CHECK_GRACE_MS} sets
 *       {@code check.grace.ms}), and every {@code ISOWATCH_KAFKA_*} variable as a passthrough key
 *       ({@code ISOWATCH_KAFKA_SECURITY_PROTOCOL} sets {@code kafka.security.protocol}: lower case,
 *       underscores as dots); other {@code ISOWATCH_*} variables (e.g. the launcher's {@code
 *       ISOWATCH_JAVA_OPTS}) are not configuration and are ignored;
 *   <li>command-line flags ({@code --dev}).
 * </ol>
 */
public final class ConfigLayers {
  private static final String KAFKA_ENV_PREFIX = KafkaClientConfig.ENV_PREFIX + "KAFKA_";

  private ConfigLayers() {}

  /**
   * The merged properties, to build a configuration from.
   *
   * @param definition the declared keys (their environment variables are read)
   * @param file the properties file, if any
   * @param env the environment ({@link System#getenv()} in production)
   * @param flags values set by command-line flags
   * @throws IOException when the file cannot be read
   */
  public static Map<String, Object> merge(final ConfigDef definition, final Optional<Path> file,
      final Map<String, String> env, final Map<String, String> flags) throws IOException {
    final Map<String, Object> merged = new HashMap<>();
    if (file.isPresent()) {
      merged.putAll(readProperties(file.get()));
    }
    merged.putAll(fromEnvironment(definition, env));
    merged.putAll(flags);
    return merged;
  }

  /** The configuration keys the environment sets. */
  public static Map<String, String> fromEnvironment(final ConfigDef definition, final Map<String, String> env) {
    final Map<String, String> out = new HashMap<>();
    for (final String key : definition.names()) {
      final String value = env.get(KafkaClientConfig.envName(key));
      if (value != null) {
        out.put(key, value);
      }
    }
    env.forEach((name, value) -> {
      if (name.startsWith(KAFKA_ENV_PREFIX) && name.length() > KAFKA_ENV_PREFIX.length()) {
        final String rest = name.substring(KAFKA_ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.');
        out.put(KafkaClientConfig.KAFKA_PREFIX + rest, value);
      }
    });
    return out;
  }

  private static Map<String, String> readProperties(final Path file) throws IOException {
    final Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(in);
    }
    final Map<String, String> out = new HashMap<>();
    p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k).trim()));
    return out;
  }
}
