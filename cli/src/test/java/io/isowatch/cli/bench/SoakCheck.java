package io.isowatch.cli.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The soak's final check (issue 10 item 8): what the checker published for the soak's tenant
 * against what the soak injected. Pure, so that a missing, duplicated, misnamed or unexpected
 * anomaly is shown to fail it by a unit test.
 *
 * <p>The rules, for the segmented run:
 *
 * <ul>
 *   <li>every expected anomaly is published exactly once (one record, not a retraction) under its
 *       expected name; an anomaly is matched to an expectation by its set of transaction ids, so a
 *       thin-air read published as {@code StaleReadBeyondHorizon} shows as misnamed, not as
 *       missing plus unexpected;
 *   <li>every expected finding (the {@code STALE_READ_BEYOND_HORIZON} of a stale read) appears in
 *       the final verdict once: one finding of that kind on that key, count 1, naming the reader;
 *   <li>nothing else: any other anomaly (the background is simulated SER, so any is a false
 *       alarm), any retraction, and any finding of a kind not tolerated fails the run. Tolerated
 *       kinds describe the checker, not the history ({@code HORIZON_PRUNED}, always present once
 *       the horizon pruned something).
 * </ul>
 */
final class SoakCheck {
  private SoakCheck() {}

  /**
   * One injected instance.
   *
   * @param what where and what it is, for the table (e.g. {@code ThinAirRead at 99.9%})
   * @param name the anomaly name it must be published under
   * @param txns its transactions, as the anomaly must list them
   * @param findingKind the finding the verdict must carry for it as well, or null
   * @param findingKey that finding's key, or null
   */
  record Expected(String what, String name, List<String> txns, String findingKind, String findingKey) {
    Expected {
      txns = List.copyOf(txns);
    }
  }

  /** One record of the anomalies topic for the tenant. */
  record PublishedAnomaly(String identity, String name, List<String> txns, boolean retraction) {
    PublishedAnomaly {
      txns = List.copyOf(txns);
    }
  }

  /** One aggregated finding of the tenant's final verdict. */
  record PublishedFinding(String kind, String key, long count, List<String> txns) {
    PublishedFinding {
      txns = List.copyOf(txns);
    }
  }

  /** One line of the table: what was expected, what was published, how many times, whether it is right. */
  record Row(String expected, String published, long count, boolean ok) {}

  /** The table and its verdict. */
  record Outcome(List<Row> rows, boolean pass) {
    String markdown() {
      final StringBuilder b = new StringBuilder("| expected | published | count | ok |\n| --- | --- | ---: | --- |\n");
      for (final Row r : rows) {
        b.append("| ").append(r.expected()).append(" | ").append(r.published()).append(" | ").append(r.count())
            .append(" | ").append(r.ok() ? "ok" : "**FAIL**").append(" |\n");
      }
      final long bad = rows.stream().filter(r -> !r.ok()).count();
      b.append('\n').append(pass ? "PASS" : "FAIL").append(": ").append(rows.size() - bad).append(" of ")
          .append(rows.size()).append(" rows ok");
      return b.toString();
    }
  }

  /**
   * Compares. {@code verdictSeen} false (no final verdict read) fails the run: findings could not
   * be checked.
   */
  static Outcome compare(final List<Expected> expected, final List<PublishedAnomaly> anomalies,
      final List<PublishedFinding> findings, final Set<String> toleratedFindingKinds, final boolean verdictSeen) {
    final List<Row> rows = new ArrayList<>();
    final List<PublishedAnomaly> unmatched = new ArrayList<>(anomalies);
    final List<PublishedFinding> findingsLeft = new ArrayList<>(findings);
    for (final Expected e : expected) {
      final Set<String> txns = new TreeSet<>(e.txns());
      final List<PublishedAnomaly> mine = unmatched.stream().filter(a -> new TreeSet<>(a.txns()).equals(txns))
          .toList();
      unmatched.removeAll(mine);
      final long published = mine.stream().filter(a -> !a.retraction()).count();
      final long retracted = mine.size() - published;
      final Set<String> names = new TreeSet<>();
      mine.forEach(a -> names.add(a.name()));
      final boolean ok = published == 1 && retracted == 0 && names.equals(Set.of(e.name()));
      final String shown = (names.isEmpty() ? "none" : String.join(", ", names))
          + (retracted > 0 ? " (retracted " + retracted + "x)" : "");
      rows.add(new Row(e.what() + ": " + e.name() + " " + e.txns(), shown, published, ok));
      if (e.findingKind() != null) {
        final List<PublishedFinding> f = findingsLeft.stream()
            .filter(x -> x.kind().equals(e.findingKind()) && Objects.equals(x.key(), e.findingKey())).toList();
        findingsLeft.removeAll(f);
        final long count = f.stream().mapToLong(PublishedFinding::count).sum();
        final boolean namesReader = f.size() == 1 && f.get(0).txns().containsAll(e.txns());
        final String found = f.isEmpty() ? "none"
            : f.stream().map(x -> x.kind() + " on " + x.key() + " " + x.txns()).toList().toString();
        rows.add(new Row(e.what() + ": finding " + e.findingKind() + " on " + e.findingKey() + " by " + e.txns(),
            found, count, verdictSeen && count == 1 && namesReader));
      }
    }
    // Whatever no expectation claimed, grouped by identity: each is a false alarm.
    final Map<String, List<PublishedAnomaly>> extra = new LinkedHashMap<>();
    unmatched.forEach(a -> extra.computeIfAbsent(a.identity(), k -> new ArrayList<>()).add(a));
    for (final List<PublishedAnomaly> same : extra.values()) {
      final PublishedAnomaly a = same.get(0);
      final boolean retracted = same.stream().anyMatch(PublishedAnomaly::retraction);
      rows.add(new Row("nothing else", a.name() + " " + a.txns() + (retracted ? " (retracted)" : ""),
          same.stream().filter(x -> !x.retraction()).count(), false));
    }
    for (final PublishedFinding f : findingsLeft) {
      final boolean tolerated = toleratedFindingKinds.contains(f.kind());
      rows.add(new Row(tolerated ? "tolerated: " + f.kind() + " (about the checker, not the history)" : "nothing else",
          f.kind() + (f.key() == null ? "" : " on " + f.key()) + " " + f.txns(), f.count(), tolerated));
    }
    if (!verdictSeen) {
      rows.add(new Row("the tenant's final verdict (its findings)", "none read", 0, false));
    }
    return new Outcome(List.copyOf(rows), verdictSeen && rows.stream().allMatch(Row::ok));
  }
}
