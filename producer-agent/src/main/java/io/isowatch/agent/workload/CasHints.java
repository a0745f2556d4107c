package io.isowatch.agent.workload;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest value the agent has seen committed per key, shared by all sessions, from which
 * compare-and-set transactions take their expected value (0 when nothing was seen yet). Only a
 * guess: a stale hint makes the CAS fail, which is recorded as such.
 */
public final class CasHints {
  private final Map<String, Long> latest = new ConcurrentHashMap<>();

  public long expected(final String key) {
    return latest.getOrDefault(key, 0L);
  }

  public void saw(final String key, final long value) {
    latest.put(key, value);
  }
}
