package io.isowatch.agent.target.faulty;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Which faults the faulty target injects and how often: {@code faulty:lostupdate=0.01,staleread=0.05}
 * or {@code faulty:all=0.02}; {@code faulty} alone injects nothing (the store is then strictly
 * serializable). A rate is the probability that a transaction for which the fault is possible
 * gets it; for {@code abortedread} it is the probability that a writer is refused at commit, its
 * value then served to the next reader of the key.
 *
 * @param rates the rate of each enabled fault, in (0, 1]
 */
public record FaultSpec(Map<FaultKind, Double> rates) {
  public FaultSpec {
    rates = Collections.unmodifiableMap(new EnumMap<>(rates.isEmpty() ? new EnumMap<>(FaultKind.class) : rates));
  }

  public static FaultSpec none() {
    return new FaultSpec(Map.of());
  }

  /** Parses the part after {@code faulty:} (may be empty). */
  public static FaultSpec parse(final String text) {
    final Map<FaultKind, Double> rates = new EnumMap<>(FaultKind.class);
    for (final String raw : text.split(",")) {
      final String item = raw.trim();
      if (item.isEmpty()) {
        continue;
      }
      final int eq = item.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("bad fault '" + item + "' in faulty spec: expected NAME=RATE, e.g. lostupdate=0.01");
      }
      final String name = item.substring(0, eq).trim();
      final double rate;
      try {
        rate = Double.parseDouble(item.substring(eq + 1).trim());
      } catch (final NumberFormatException e) {
        throw new IllegalArgumentException("bad rate in fault '" + item + "': expected a number in [0,1]", e);
      }
      if (!(rate >= 0 && rate <= 1)) {
        throw new IllegalArgumentException("rate of fault '" + name + "' must be in [0,1], got " + rate);
      }
      if (name.equalsIgnoreCase("all")) {
        for (final FaultKind k : FaultKind.values()) {
          rates.put(k, rate);
        }
      } else {
        rates.put(FaultKind.parse(name), rate);
      }
    }
    rates.values().removeIf(r -> r == 0);
    return new FaultSpec(rates);
  }

  public double rate(final FaultKind kind) {
    return rates.getOrDefault(kind, 0.0);
  }

  public boolean enabled(final FaultKind kind) {
    return rate(kind) > 0;
  }

  /** The canonical spelling, e.g. {@code lostupdate=0.01,staleread=0.05}, or {@code none}. */
  public String spec() {
    return rates.isEmpty() ? "none"
        : rates.entrySet().stream().map(e -> e.getKey().spec() + "=" + e.getValue()).collect(Collectors.joining(","));
  }
}
