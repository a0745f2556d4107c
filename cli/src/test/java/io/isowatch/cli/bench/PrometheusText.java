package io.isowatch.cli.bench;

import java.util.List;
import java.util.OptionalDouble;

/**
 * A Prometheus text page ({@code /metrics}) read by sample name and tenant: enough for the soak's
 * table, which samples families by name so that it also runs against builds that lack some of them.
 */
final class PrometheusText {
  private final List<String> lines;

  private PrometheusText(final List<String> lines) {
    this.lines = lines;
  }

  static PrometheusText parse(final String page) {
    return new PrometheusText(page.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList());
  }

  /**
   * The sum of the samples named exactly {@code name} (e.g. {@code isowatch_prune_seconds_sum})
   * whose {@code tenant} label is {@code tenant}; samples without a tenant label count too (a
   * family that is not per tenant). Empty when no sample matches: the family is not served.
   */
  OptionalDouble value(final String name, final String tenant) {
    double sum = 0;
    boolean found = false;
    for (final String line : lines) {
      if (!line.startsWith(name) || line.length() == name.length()) {
        continue;
      }
      final char next = line.charAt(name.length());
      final String rest;
      if (next == '{') {
        final int close = line.lastIndexOf('}');
        final String labels = line.substring(name.length() + 1, close);
        if (labels.contains("tenant=\"") && !labels.contains("tenant=\"" + tenant + "\"")) {
          continue;
        }
        rest = line.substring(close + 1).trim();
      } else if (next == ' ') {
        rest = line.substring(name.length()).trim();
      } else {
        // A longer name sharing the prefix (isowatch_prune_seconds_count for isowatch_prune_seconds).
        continue;
      }
      sum += Double.parseDouble(rest.split("\\s+")[0]);
      found = true;
    }
    return found ? OptionalDouble.of(sum) : OptionalDouble.empty();
  }
}
