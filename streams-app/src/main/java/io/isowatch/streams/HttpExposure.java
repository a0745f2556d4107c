package io.isowatch.streams;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.apache.kafka.common.config.ConfigException;

/**
 * The rule that keeps the checker's HTTP endpoint off the network unless it is guarded: the web UI,
 * its API and /metrics name tenants, keys and values of the checked databases. A loopback bind is
 * always allowed; any other needs {@code http.auth.token}, or {@code http.allow.unauthenticated=true}
 * where the network itself restricts who can connect.
 */
final class HttpExposure {
  private HttpExposure() {}

  /**
   * @param port the configured http.port (-1: no endpoint, nothing to check)
   * @throws ConfigException when the bind is not loopback, no token is set and nothing allows it
   */
  static void require(final int port, final String host, final boolean token, final boolean allowUnauthenticated) {
    if (port < 0 || token || allowUnauthenticated || loopback(host)) {
      return;
    }
    throw new ConfigException(IsoWatchStreamsConfig.HTTP_HOST_CONFIG, host,
        "binds the HTTP endpoint (web UI, /api, /metrics) beyond this machine without a token. Set "
            + IsoWatchStreamsConfig.HTTP_AUTH_TOKEN_CONFIG + " (" + envName(IsoWatchStreamsConfig.HTTP_AUTH_TOKEN_CONFIG)
            + "), or bind " + IsoWatchStreamsConfig.HTTP_HOST_DEFAULT + ", or set "
            + IsoWatchStreamsConfig.HTTP_ALLOW_UNAUTHENTICATED_CONFIG + "=true ("
            + envName(IsoWatchStreamsConfig.HTTP_ALLOW_UNAUTHENTICATED_CONFIG)
            + ") if the network itself restricts who can connect");
  }

  /** A literal or resolvable loopback address; anything that does not resolve counts as not loopback. */
  static boolean loopback(final String host) {
    try {
      final InetAddress[] all = InetAddress.getAllByName(host);
      for (final InetAddress a : all) {
        if (!a.isLoopbackAddress()) {
          return false;
        }
      }
      return all.length > 0;
    } catch (final UnknownHostException e) {
      return false;
    }
  }

  private static String envName(final String key) {
    return IsoWatchStreamsConfig.envName(key);
  }
}
