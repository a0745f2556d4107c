package io.isowatch.streams;

import static io.isowatch.streams.testkit.PublishedAnomalies.comparable;
import static io.isowatch.streams.testkit.PublishedAnomalies.expectedRecords;
import static io.isowatch.streams.testkit.PublishedAnomalies.fed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.oracle.WeakHistories;
import io.isowatch.core.oracle.WeakLevel;
import io.isowatch.core.oracle.WeakLevelOracle;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.streams.processor.VerdictRecords;
import io.isowatch.streams.testkit.CheckerDriver;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * MIXED through the topology (check.levels=SER,MIXED, check.default.level=SI), whatever the arrival
 * order: histories of the oracle's generator whose transactions declare random levels (one in five
 * none, judged at the default level), each a tenant, arriving shuffled with duplicates. The verdicts
 * and anomalies published equal {@code OnlineChecker.check} on the same history (what {@code isowatch
 * check --levels SER,MIXED --default-level SI} prints), and every decided MIXED verdict is the
 * brute-force oracle's of paper 003 ({@link WeakLevelOracle#decideMixed}).
 *
 * <p>{@value #DEFAULT_HISTORIES} histories per run; {@code -Disowatch.mixed.topology.histories=N} runs more.
 */
class MixedLevelsOrderIndependenceTopologyTest {
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final int DEFAULT_HISTORIES = 10_000;
  private static final int HISTORIES = Integer.getInteger("isowatch.mixed.topology.histories", DEFAULT_HISTORIES);
  private static final long BASE_SEED = 240_000L;
  private static final int BATCH = 1_000;
  private static final List<WeakLevel> DECLARABLE = List.of(WeakLevel.RC, WeakLevel.RA, WeakLevel.CC, WeakLevel.PC,
      WeakLevel.SI, WeakLevel.SER);
  private static final Map<String, String> SETTINGS = Map.of(
      IsoWatchStreamsConfig.CHECK_LEVELS_CONFIG, "SER,MIXED",
      IsoWatchStreamsConfig.CHECK_DEFAULT_LEVEL_CONFIG, "SI");

  @TempDir Path stateDir;

  @Test
  void shouldPublishWhatCheckAndTheOracleDecideForMixedWhenDeclaredHistoriesArriveShuffledWithDuplicates() {
    final Random rnd = new Random(13);
    final List<String> failures = new ArrayList<>();
    final int[] tally = new int[3]; // satisfied, violated, unknown
    for (int from = 0; from < HISTORIES; from += BATCH) {
      // Given: the histories, each a tenant of one checker deciding SER and MIXED
      final Map<String, History> cases = new TreeMap<>();
      final Map<String, String> described = new HashMap<>();
      for (long i = from; i < Math.min(HISTORIES, from + BATCH); i++) {
        final WeakHistories.Generated g = WeakHistories.generate(BASE_SEED + i);
        cases.put("mixed-" + i, declared(g.history(), new Random(BASE_SEED + i)));
        described.put("mixed-" + i, g.describe());
      }
      final Map<String, List<Anomaly>> published = new HashMap<>();
      final Map<String, TenantVerdict> verdicts = new HashMap<>();
      final Map<String, String> settings = new HashMap<>(SETTINGS);
      settings.put(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, "1");
      try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir.resolve("batch-" + from), settings)) {
        // When: each arrives shuffled, a fifth of its transactions twice; then a flush and verdicts
        for (final Map.Entry<String, History> e : cases.entrySet()) {
          checker.pipe(shuffledWithDuplicates(CheckerDriver.events(e.getKey(), e.getValue()), rnd));
        }
        checker.flushIdleTenants();
        checker.publishVerdicts();
        checker.anomalies().forEach(a -> published.computeIfAbsent(a.getTenant(), t -> new ArrayList<>()).add(a));
        checker.verdicts().forEach(v -> verdicts.put(v.getTenant(), v));
      }
      // Then
      for (final Map.Entry<String, History> e : cases.entrySet()) {
        compare(e.getKey(), e.getValue(), described.get(e.getKey()), verdicts.get(e.getKey()),
            published.getOrDefault(e.getKey(), List.of()), failures, tally);
      }
    }
    assertEquals(List.of(), failures.size() > 10 ? failures.subList(0, 10) : failures, failures.size() + " failures");
    // The comparison was about something: most MIXED verdicts decided, both ways.
    assertTrue(tally[0] > HISTORIES / 10 && tally[1] > HISTORIES / 10, "satisfied, violated, unknown: "
        + tally[0] + ", " + tally[1] + ", " + tally[2]);
    assertTrue(tally[2] < HISTORIES / 10, "unknown: " + tally[2]);
  }

  private static void compare(final String tenant, final History h, final String described, final TenantVerdict got,
      final List<Anomaly> published, final List<String> failures, final int[] tally) {
    final String why = tenant + ": " + described;
    final CheckResult want = OnlineChecker.check(fed(tenant, h), options());
    final TenantVerdict wantVerdict = VerdictRecords.toAvro(tenant, want, 0, 0, 0, got.getAtMicros());
    if (!wantVerdict.getLevels().equals(got.getLevels())) {
      failures.add("verdicts " + got.getLevels() + " but check " + wantVerdict.getLevels() + "\n" + why);
      return;
    }
    final Map<String, Anomaly> onTopic = comparable(published);
    if (!comparable(expectedRecords(tenant, want)).equals(onTopic)) {
      failures.add("anomalies " + names(published) + " differ from check's " + names(expectedRecords(tenant, want))
          + "\n" + why);
      return;
    }
    final Verdict mixed = VerdictRecords.coreVerdicts(got).get(Level.MIXED);
    if (mixed == null) {
      failures.add("no MIXED verdict published\n" + why);
      return;
    }
    tally[mixed.ordinal()]++;
    if (mixed == Verdict.VIOLATED && published.stream().noneMatch(a -> a.getViolates().contains(
        io.isowatch.schemas.Level.MIXED))) {
      failures.add("MIXED VIOLATED but no anomaly published lists MIXED\n" + why);
    }
    if (mixed != Verdict.UNKNOWN) {
      final boolean holds = WeakLevelOracle.decideMixed(h, 0L, t -> t.level() == null ? WeakLevel.SI
          : WeakLevel.valueOf(t.level()));
      if (holds != (mixed == Verdict.SATISFIED)) {
        failures.add("MIXED " + mixed + " but the oracle says " + holds + "\n" + why);
      }
    }
  }

  private static List<String> names(final List<Anomaly> anomalies) {
    return anomalies.stream().map(a -> a.getName() + "/" + a.getType() + a.getViolates() + a.getCycle().stream()
        .map(c -> c.getFrom() + "-" + c.getKind() + "(" + c.getKey() + ")->" + c.getTo()).toList()).sorted().toList();
  }

  private static CheckOptions options() {
    return new IsoWatchStreamsConfig(SETTINGS).checkOptions();
  }

  /** Each transaction declares a random level, or (one in five) none. */
  private static History declared(final History h, final Random rnd) {
    final List<Transaction> out = new ArrayList<>();
    for (final Transaction t : h.transactions()) {
      final String level = rnd.nextInt(5) == 0 ? null : DECLARABLE.get(rnd.nextInt(DECLARABLE.size())).name();
      out.add(new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), t.ops(), t.tenant(),
          level, t.line()));
    }
    return new History(out);
  }

  private static List<TransactionEvent> shuffledWithDuplicates(final List<TransactionEvent> events, final Random rnd) {
    final List<TransactionEvent> out = new ArrayList<>(events);
    for (final TransactionEvent e : events) {
      if (rnd.nextInt(5) == 0) {
        out.add(e);
      }
    }
    Collections.shuffle(out, rnd);
    return out;
  }
}
