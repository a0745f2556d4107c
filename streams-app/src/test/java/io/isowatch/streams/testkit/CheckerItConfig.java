package io.isowatch.streams.testkit;

import io.isowatch.streams.IsoWatchStreamsConfig;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The settings every integration test's {@code CheckerApp} starts from; each test adds its own. */
public final class CheckerItConfig {
  private CheckerItConfig() {}

  /**
   * The test's broker and registry (schemas registered as in development), its application id and
   * state directory, a bounded shutdown, and commits every 100 ms so that results show quickly.
   * Mutable: the caller puts its own keys.
   */
  public static Map<String, Object> base(final String bootstrapServers, final URI registry, final String appId,
      final Path stateDir) {
    final Map<String, Object> p = new HashMap<>();
    p.put(IsoWatchStreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(IsoWatchStreamsConfig.SCHEMA_REGISTRY_URL_CONFIG, registry.toString());
    p.put(IsoWatchStreamsConfig.SCHEMAS_AUTO_REGISTER_CONFIG, "true");
    p.put(IsoWatchStreamsConfig.APPLICATION_ID_CONFIG, appId);
    p.put(IsoWatchStreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(IsoWatchStreamsConfig.SHUTDOWN_TIMEOUT_MS_CONFIG, "20000");
    p.put("kafka.commit.interval.ms", "100");
    return p;
  }
}
