package io.isowatch.agent.target.faulty;

import java.util.Arrays;
import java.util.Locale;

/**
 * The anomalies the faulty target can inject, each with the name under which the checker reports
 * it (MTC Table I), or for a stale read, which has no Table I name, its Adya/Elle type.
 */
public enum FaultKind {
  /** A read-modify-write reads the version before the latest, so two writers overwrite one version. */
  LOST_UPDATE("lostupdate", "LostUpdate", "G-single"),
  /**
   * A read-only transaction reads at its session's last snapshot although a newer version of a
   * key it reads was committed, by another session, before it started (real time).
   */
  STALE_READ("staleread", null, "G-single-realtime"),
  /** A writer is refused at commit (reported as a serialization failure) and a later read returns its value. */
  ABORTED_READ("abortedread", "AbortedRead", "G1a"),
  /** A read returns the first of two values the latest writer wrote to the key. */
  INTERMEDIATE_READ("intermediateread", "IntermediateRead", "G1b"),
  /** Reading x then y: x from before the latest writer of y, although that writer also wrote x. */
  FRACTURED_READ("fracturedread", "FracturedRead", "G-single"),
  /**
   * Of two writers of x and y, an earlier reader saw only the one on x; this reader sees only the
   * one on y.
   */
  LONG_FORK("longfork", "LongFork", "G2-item"),
  /** Sees T2's y but misses T1's x, which T2 had read. */
  CAUSALITY_VIOLATION("causality", "CausalityViolation", "G-single"),
  /** Misses the writes of the previous transaction of its own session. */
  SESSION_VIOLATION("session", "SessionGuaranteeViolation", "G-single-process");

  private final String spec;
  private final String checkerName;
  private final String checkerType;

  FaultKind(final String spec, final String checkerName, final String checkerType) {
    this.spec = spec;
    this.checkerName = checkerName;
    this.checkerType = checkerType;
  }

  /** The spelling in a {@code faulty:} spec. */
  public String spec() {
    return spec;
  }

  /** The anomaly name the checker reports, or null when it reports only a type (stale read). */
  public String checkerName() {
    return checkerName;
  }

  /** The anomaly type the checker reports when the fault is seen alone. */
  public String checkerType() {
    return checkerType;
  }

  /** True when a checker anomaly with this name and type is what this fault is detected as. */
  public boolean detectedAs(final String name, final String type) {
    return checkerName != null ? checkerName.equals(name) : name == null && checkerType.equals(type);
  }

  /** Parses a spelling, ignoring case, '-' and '_'; accepts the long forms too. */
  public static FaultKind parse(final String text) {
    final String s = text.trim().toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
    for (final FaultKind k : values()) {
      if (k.spec.equals(s) || (k.checkerName != null && k.checkerName.toLowerCase(Locale.ROOT).equals(s))) {
        return k;
      }
    }
    return switch (s) {
      case "causalityviolation" -> CAUSALITY_VIOLATION;
      case "sessionviolation", "sessionguarantee" -> SESSION_VIOLATION;
      default -> throw new IllegalArgumentException("unknown fault '" + text + "' (expected one of "
          + String.join(", ", Arrays.stream(values()).map(FaultKind::spec).toList()) + ", or all)");
    };
  }
}
