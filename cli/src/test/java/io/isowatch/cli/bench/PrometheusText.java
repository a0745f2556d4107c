package io.isowatch.cli.bench;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

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

  /**
   * Every sample whose name starts with {@code prefix} (e.g. {@code isowatch_retired_}), of
   * {@code tenant} or without a tenant label, by its name followed by its other labels in braces
   * when it has any ({@code isowatch_retired_versions{filter="overwritten"}}): families a newer
   * checker adds are recorded without this reader knowing them.
   */
  Map<String, Double> series(final String prefix, final String tenant) {
    final Map<String, Double> out = new TreeMap<>();
    for (final String line : lines) {
      if (!line.startsWith(prefix)) {
        continue;
      }
      final int brace = line.indexOf('{');
      final int space = line.indexOf(' ');
      final String name;
      final String rest;
      final StringBuilder other = new StringBuilder();
      if (brace >= 0 && (space < 0 || brace < space)) {
        final int close = line.lastIndexOf('}');
        name = line.substring(0, brace);
        boolean mine = true;
        for (final String label : line.substring(brace + 1, close).split(",")) {
          if (label.isBlank()) {
            continue;
          }
          if (label.startsWith("tenant=")) {
            mine = label.equals("tenant=\"" + tenant + "\"");
          } else {
            other.append(other.length() == 0 ? "" : ",").append(label);
          }
        }
        if (!mine) {
          continue;
        }
        rest = line.substring(close + 1).trim();
      } else {
        name = line.substring(0, space);
        rest = line.substring(space).trim();
      }
      final String id = other.length() == 0 ? name : name + "{" + other + "}";
      out.merge(id, Double.parseDouble(rest.split("\\s+")[0]), Double::sum);
    }
    return out;
  }
}
