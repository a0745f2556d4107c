package io.isowatch.streams;

import io.isowatch.schemas.config.ConfigLayers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The configuration of {@code isowatch run} from its sources: the defaults of {@link
 * IsoWatchStreamsConfig#CONFIG_DEF} &lt; a properties file &lt; the environment &lt; command-line
 * flags, merged by {@link ConfigLayers} (which says how each source is read).
 */
public final class ConfigSources {
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
    return new IsoWatchStreamsConfig(ConfigLayers.merge(IsoWatchStreamsConfig.CONFIG_DEF, file, env, flags));
  }

  /** The configuration keys the environment sets. */
  public static Map<String, String> fromEnvironment(final Map<String, String> env) {
    return ConfigLayers.fromEnvironment(IsoWatchStreamsConfig.CONFIG_DEF, env);
  }
}
