package io.isowatch.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * One row of the soak: where the checker stood at {@code elapsedSeconds} after the producer
 * started. Sizes are bytes; an empty optional is a figure this checker build or moment could not
 * give (a metric family it does not serve, a topic that does not exist, a process that is gone),
 * shown as {@code n/a} in the Markdown table and left empty in the CSV.
 *
 * @param produced transactions sent by the producer so far
 * @param committed input records whose offsets the checker's group has committed (checked and published)
 * @param rate committed transactions per second since the previous row
 * @param rssKib the checker's resident set size ({@code VmRSS})
 * @param heapUsedBytes {@code isowatch_heap_used_bytes}: heap in use, garbage included
 * @param stateDirBytes the checker's {@code state.dir} on disk (RocksDB stores, checkpoints)
 * @param inputBytes the input topic's log on the broker
 * @param transactionsChangelogBytes {@code <app>-tenant-transactions-changelog} on the broker
 * @param checkpointsChangelogBytes {@code <app>-tenant-checkpoints-changelog}, when it exists
 * @param metrics the tenant's samples of {@link #METRICS}, by name, and any others the soak found
 *     (every {@code isowatch_retired_*} series, the other changelogs' sizes): those go to the CSV
 *     only, as extra columns ({@link #csvHeader(List)})
 */
record SoakSample(double elapsedSeconds, long produced, long committed, double rate, OptionalLong rssKib,
    OptionalDouble heapUsedBytes, OptionalLong stateDirBytes, OptionalLong inputBytes,
    OptionalLong transactionsChangelogBytes, OptionalLong checkpointsChangelogBytes,
    Map<String, OptionalDouble> metrics) {

  /** The checker's samples recorded per row, for the soak's tenant. */
  static final List<String> METRICS = List.of(
      "isowatch_state_transactions", "isowatch_retained_transactions", "isowatch_pruned_transactions_total",
      "isowatch_checkpoints_total", "isowatch_checkpoint_bytes", "isowatch_inputs_deleted_total",
      "isowatch_prune_seconds_sum", "isowatch_prune_seconds_count");

  private static final double MIB = 1024.0 * 1024.0;

  static String markdownHeader() {
    final List<String> h = List.of("elapsed s", "produced", "committed", "txn/s", "RSS MiB", "heap used MiB",
        "state dir MiB", "input topic MiB", "txn changelog MiB", "ckpt changelog MiB", "state txns (stored inputs)",
        "retained txns", "pruned total", "checkpoints", "ckpt bytes", "inputs deleted", "prune s (sum / count)");
    return "| " + String.join(" | ", h) + " |\n|" + " ---: |".repeat(h.size());
  }

  String markdownRow() {
    final List<String> c = new ArrayList<>();
    c.add(String.format(Locale.ROOT, "%.0f", elapsedSeconds));
    c.add(String.format(Locale.ROOT, "%,d", produced));
    c.add(String.format(Locale.ROOT, "%,d", committed));
    c.add(String.format(Locale.ROOT, "%,.0f", rate));
    c.add(rssKib.isPresent() ? String.format(Locale.ROOT, "%.0f", rssKib.getAsLong() / 1024.0) : "n/a");
    c.add(mib(heapUsedBytes));
    c.add(mib(stateDirBytes));
    c.add(mib(inputBytes));
    c.add(mib(transactionsChangelogBytes));
    c.add(mib(checkpointsChangelogBytes));
    for (final String m : METRICS.subList(0, 6)) {
      c.add(count(metrics.get(m)));
    }
    final OptionalDouble sum = metrics.get("isowatch_prune_seconds_sum");
    final OptionalDouble n = metrics.get("isowatch_prune_seconds_count");
    c.add(sum.isPresent() && n.isPresent()
        ? String.format(Locale.ROOT, "%.1f / %.0f", sum.getAsDouble(), n.getAsDouble()) : "n/a");
    return "| " + String.join(" | ", c) + " |";
  }

  static String csvHeader() {
    return csvHeader(List.of());
  }

  /** The header with the extra columns {@code extras} (names of {@link #metrics()} beyond {@link #METRICS}). */
  static String csvHeader(final List<String> extras) {
    final List<String> h = new ArrayList<>(List.of("elapsed_s", "produced", "committed", "txn_per_s", "rss_kib",
        "heap_used_bytes", "state_dir_bytes", "input_topic_bytes", "txn_changelog_bytes", "ckpt_changelog_bytes"));
    h.addAll(METRICS);
    // A series name may hold labels with commas and quotes: one CSV field, quoted.
    extras.forEach(x -> h.add("\"" + x.replace("\"", "\"\"") + "\""));
    return String.join(",", h);
  }

  String csvRow() {
    return csvRow(List.of());
  }

  /** The row with the extra columns {@code extras}: empty where this row has no such figure. */
  String csvRow(final List<String> extras) {
    final List<String> c = new ArrayList<>();
    c.add(String.format(Locale.ROOT, "%.1f", elapsedSeconds));
    c.add(Long.toString(produced));
    c.add(Long.toString(committed));
    c.add(String.format(Locale.ROOT, "%.1f", rate));
    c.add(raw(rssKib));
    c.add(raw(heapUsedBytes));
    c.add(raw(stateDirBytes));
    c.add(raw(inputBytes));
    c.add(raw(transactionsChangelogBytes));
    c.add(raw(checkpointsChangelogBytes));
    METRICS.forEach(m -> c.add(raw(metrics.get(m))));
    extras.forEach(m -> c.add(raw(metrics.getOrDefault(m, OptionalDouble.empty()))));
    return String.join(",", c);
  }

  private static String mib(final OptionalLong bytes) {
    return bytes.isPresent() ? String.format(Locale.ROOT, "%.1f", bytes.getAsLong() / MIB) : "n/a";
  }

  private static String mib(final OptionalDouble bytes) {
    return bytes.isPresent() ? String.format(Locale.ROOT, "%.1f", bytes.getAsDouble() / MIB) : "n/a";
  }

  private static String count(final OptionalDouble v) {
    return v.isPresent() ? String.format(Locale.ROOT, "%,.0f", v.getAsDouble()) : "n/a";
  }

  private static String raw(final OptionalLong v) {
    return v.isPresent() ? Long.toString(v.getAsLong()) : "";
  }

  private static String raw(final OptionalDouble v) {
    if (v.isEmpty()) {
      return "";
    }
    final double d = v.getAsDouble();
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }
}
