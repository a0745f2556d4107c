package io.isowatch.streams;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --config FILE}, the checker's properties file, shared as a picocli {@code @Mixin} by the
 * commands that read the configuration of {@code isowatch run} ({@link ConfigSources}).
 */
public final class ConfigFileOption {
  @Option(names = "--config", paramLabel = "FILE", description = "The checker's properties file"
      + " (java.util.Properties syntax): defaults < FILE < ISOWATCH_* environment < flags.")
  private Path file;

  /** Whether {@code --config} was given. */
  public boolean given() {
    return file != null;
  }

  /** The configuration: the defaults, then the file, then the ISOWATCH_* environment, then {@code flags}. */
  public IsoWatchStreamsConfig load(final Map<String, String> flags) throws IOException {
    return ConfigSources.load(Optional.ofNullable(file), System.getenv(), flags);
  }
}
