package io.isowatch.streams.fault;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tenants that Kafka Streams' exception handlers found at fault, waiting for their task's check
 * processor to quarantine them. A handler cannot write a state store; it names the tenant here and
 * fails the stream thread, which is replaced (see {@code CheckerApp}); the task resumes from its last
 * commit and its processor quarantines the tenant (persistently, in {@code tenant-quarantine}) before
 * handling its record again. So a record that cannot be produced (larger than the broker accepts,
 * say) fails one thread once instead of crash-looping the application. One instance per running
 * checker, shared by its handlers and processors; thread-safe.
 *
 * <p>A request is taken only by a processor started after it was made ({@link #mark}). The
 * production handler runs on the producer's thread when the broker answers, while the stream thread
 * whose send failed goes on until its next send or commit raises the failure: a quarantine that
 * thread's processor wrote in between would be aborted with its transaction, and the request
 * would be gone with it (the tenant never quarantined, the thread's failure then taken for a bug).
 */
public final class QuarantineRequests {
  /** Key of the instance in the Streams properties, where the handlers find it. */
  public static final String CONFIG_KEY = "isowatch.quarantine.requests";

  private final Map<String, Request> pending = new ConcurrentHashMap<>();
  private final AtomicLong made = new AtomicLong();
  /** Failures already blamed on a record, by identity (a Throwable's equals is identity); weak: gone when dropped. */
  private final Set<Throwable> blamed = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  /** A tenant's request: the reason its verdict will give, and its place among the requests made. */
  private record Request(String reason, long number) {}

  /** Asks for the tenant's quarantine, with the reason its verdict will give; the first request stands. */
  public void request(final String tenant, final String reason) {
    pending.computeIfAbsent(tenant, t -> new Request(reason, made.incrementAndGet()));
  }

  /**
   * Asks for the tenant's quarantine for {@code failure} unless that very failure was already blamed
   * on a record; returns whether it was asked. A transactional producer fails every batch not yet
   * sent when one is refused with that refusal's exception (the transaction must abort), so the
   * records of other tenants that happened to be buffered then come back with the same instance:
   * their tenants are not at fault. The refused batch's own callback comes first (the producer's
   * one sender thread completes it before it aborts the others).
   */
  public boolean requestFor(final String tenant, final Throwable failure, final String reason) {
    if (!blamed.add(failure)) {
      return false;
    }
    request(tenant, reason);
    return true;
  }

  /**
   * Where the requests stand now: a processor started now keeps this and takes only the requests
   * made up to it, never those that its own failure (or a later one) makes.
   */
  public long mark() {
    return made.get();
  }

  /**
   * The reason of a pending request for the tenant made no later than {@code mark}, removing it;
   * empty when there is none (a later request stays for the processor that replaces the caller).
   */
  public Optional<String> take(final String tenant, final long mark) {
    if (pending.isEmpty()) {
      return Optional.empty();
    }
    final Request request = pending.get(tenant);
    if (request == null || request.number() > mark || !pending.remove(tenant, request)) {
      return Optional.empty();
    }
    return Optional.of(request.reason());
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
