package io.isowatch.streams.engine;

/** Makes each tenant's {@link TenantEngine}. */
@FunctionalInterface
public interface TenantEngineFactory {
  /** A new engine for a tenant never checked before (or whose inputs are all to be replayed). */
  TenantEngine create(String tenant);

  /**
   * An engine equal to the one whose {@link TenantEngine#checkpoint()} gave these bytes.
   *
   * @throws IllegalArgumentException when the bytes are not a checkpoint this version can read
   * @throws UnsupportedOperationException when this factory's engines make no checkpoints
   */
  default TenantEngine restore(final String tenant, final byte[] checkpoint) {
    throw new UnsupportedOperationException("these engines make no checkpoints");
  }

  /**
   * The levels its engines decide: those of a verdict published without an engine (a quarantined
   * tenant whose engine gives none).
   */
  default java.util.Set<io.isowatch.core.check.Level> levels() {
    return io.isowatch.core.check.Level.CLASSIC;
  }
}
