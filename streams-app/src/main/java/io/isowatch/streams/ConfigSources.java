package io.isowatch.streams;

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

/**
 * Merges the configuration sources of {@code isowatch run}, lowest precedence first:
 *
 * <ol>
 *   <li>the defaults of {@link IsoWatchStreamsConfig#CONFIG_DEF};
 *   <li>a properties file ({@code --config FILE}, {@link java.util.Properties} syntax);
 *   <li>the environment: for each declared key its variable ({@code ISOWATCH_CHECK_GRACE_MS} sets
 *       {@code check.grace.ms}), and every {@code ISOWATCH_KAFKA_*} variable as a passthrough key
 *       ({@code ISOWATCH_KAFKA_SECURITY_PROTOCOL} sets {@code kafka.security.protocol}: lower case,
 *       underscores as dots); other {@code ISOWATCH_*} variables (e.g. the launcher's {@code
 *       ISOWATCH_JAVA_OPTS}) are not configuration and are ignored;
 *   <li>command-line flags ({@code --dev}).
 * </ol>
 */
public final class ConfigSources {
  private static final String KAFKA_ENV_PREFIX =
      IsoWatchStreamsConfig.ENV_PREFIX + "KAFKA_";

  private ConfigSources() {}

  /**
   * The merged configuration.
   *
   * @param file the properties file, if any
   * @param env the environment ({@link System#getenv()} in production)
   * @param flags values set by command-line flags
   * @throws IOException when the file cannot be read
   * @throws org.apache.kafka.common.config.ConfigException when a value is invalid
   */
  public static IsoWatchStreamsConfig load(
      final Optional<Path> file, final Map<String, String> env, final Map<String, String> flags)
      throws IOException {
    final Map<String, Object> merged = new HashMap<>();
    if (file.isPresent()) {
      merged.putAll(readProperties(file.get()));
    }
    merged.putAll(fromEnvironment(env));
    merged.putAll(flags);
    return new IsoWatchStreamsConfig(merged);
  }

  /** The configuration keys the environment sets. */
  public static Map<String, String> fromEnvironment(final Map<String, String> env) {
    final Map<String, String> out = new HashMap<>();
    for (final String key : IsoWatchStreamsConfig.CONFIG_DEF.names()) {
      final String value = env.get(IsoWatchStreamsConfig.envName(key));
      if (value != null) {
        out.put(key, value);
      }
    }
    env.forEach((name, value) -> {
      if (name.startsWith(KAFKA_ENV_PREFIX) && name.length() > KAFKA_ENV_PREFIX.length()) {
        final String rest = name.substring(KAFKA_ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.');
        out.put(IsoWatchStreamsConfig.KAFKA_PREFIX + rest, value);
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
