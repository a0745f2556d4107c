package io.isowatch.streams.fault;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tenants that Kafka Streams' exception handlers found at fault, waiting for their task's check
 * processor to quarantine them. A handler cannot write a state store; it names the tenant here and
 * fails the stream thread, which is replaced (see {@code CheckerApp}); the task resumes from its last
 * commit and its processor quarantines the tenant (persistently, in {@code tenant-quarantine}) before
 * handling its record again. So a record that cannot be produced (larger than the broker accepts,
 * say) fails one thread once instead of crash-looping the application. One instance per running
 * checker, shared by its handlers and processors; thread-safe.
 */
public final class QuarantineRequests {
  /** Key of the instance in the Streams properties, where the handlers find it. */
  public static final String CONFIG_KEY = "isowatch.quarantine.requests";

  private final Map<String, String> pending = new ConcurrentHashMap<>();

  /** Asks for the tenant's quarantine, with the reason its verdict will give. */
  public void request(final String tenant, final String reason) {
    pending.putIfAbsent(tenant, reason);
  }

  /** The reason of a pending request for the tenant, removing it; empty when there is none. */
  public Optional<String> take(final String tenant) {
    return pending.isEmpty() ? Optional.empty() : Optional.ofNullable(pending.remove(tenant));
  }

  /** Whether some tenant waits for its quarantine. */
  public boolean anyPending() {
    return !pending.isEmpty();
  }

  /** The instance in a handler's configuration, or a new one when absent (a handler used alone). */
  public static QuarantineRequests from(final Map<String, ?> configs) {
    final Object o = configs.get(CONFIG_KEY);
    return o instanceof QuarantineRequests q ? q : new QuarantineRequests();
  }
}
