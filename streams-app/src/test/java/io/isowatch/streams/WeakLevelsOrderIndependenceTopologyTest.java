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
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The weak levels through the topology, whatever the arrival order (issue 12, item 5: the topology's
 * order independence): histories of the oracle's generator ({@link WeakHistories}, built under
 * visibility rules that reach every level boundary), each a tenant, arriving shuffled with
 * duplicates; every level decided. The verdicts published and the anomalies published equal
 * {@code OnlineChecker.check} on the same history, and every SATISFIED or VIOLATED verdict of PL2,
 * RC, RA, CC, PC, SI, RR and SER is the brute-force oracle's ({@link WeakLevelOracle}).
 *
 * <p>{@value #DEFAULT_HISTORIES} histories per run; {@code -Disowatch.weak.topology.histories=N} runs more.
 */
class WeakLevelsOrderIndependenceTopologyTest {
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final int DEFAULT_HISTORIES = 10_000;
  private static final int HISTORIES = Integer.getInteger("isowatch.weak.topology.histories", DEFAULT_HISTORIES);
  private static final long BASE_SEED = 120_000L;
  private static final int BATCH = 1_000;
  private static final String EVERY_LEVEL = "PL2,RC,RA,CC,PC,SI,RR,SER,SSER";
  /** Every level the oracle decides, by the engine's name. */
  private static final Map<Level, WeakLevel> ORACLE = new EnumMap<>(Level.class);

  static {
    for (final WeakLevel w : WeakLevel.values()) {
      ORACLE.put(Level.valueOf(w.levelName()), w);
    }
  }

  @TempDir Path stateDir;

  @Test
  void shouldPublishWhatCheckAndTheOracleDecideAtEveryLevelWhenWeakHistoriesArriveShuffledWithDuplicates() {
    final Random rnd = new Random(12);
    final List<String> failures = new ArrayList<>();
    final Map<Level, Integer> decided = new EnumMap<>(Level.class);
    final Map<Level, Integer> violated = new EnumMap<>(Level.class);
    // In batches of tenants, each on a checker of its own: one checker holding every tenant's
    // engine and every record published would need a large heap.
    for (int from = 0; from < HISTORIES; from += BATCH) {
      // Given: the histories, each a tenant of one checker deciding every level
      final Map<String, WeakHistories.Generated> cases = new TreeMap<>();
      for (long i = from; i < Math.min(HISTORIES, from + BATCH); i++) {
        cases.put("weak-" + i, WeakHistories.generate(BASE_SEED + i));
      }
      final Map<String, List<Anomaly>> published = new HashMap<>();
      final Map<String, TenantVerdict> verdicts = new HashMap<>();
      try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir.resolve("batch-" + from), Map.of(
          IsoWatchStreamsConfig.CHECK_LEVELS_CONFIG, EVERY_LEVEL,
          IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, "1"))) {
        // When: each arrives shuffled, a fifth of its transactions twice; then a flush and verdicts
        for (final Map.Entry<String, WeakHistories.Generated> e : cases.entrySet()) {
          checker.pipe(shuffledWithDuplicates(CheckerDriver.events(e.getKey(), e.getValue().history()), rnd));
        }
        checker.flushIdleTenants();
        checker.publishVerdicts();
        checker.anomalies().forEach(a -> published.computeIfAbsent(a.getTenant(), t -> new ArrayList<>()).add(a));
        checker.verdicts().forEach(v -> verdicts.put(v.getTenant(), v));
      }
      // Then
      for (final Map.Entry<String, WeakHistories.Generated> e : cases.entrySet()) {
        compare(e.getKey(), e.getValue(), verdicts.get(e.getKey()), published.getOrDefault(e.getKey(), List.of()),
            failures, decided, violated);
      }
    }
    assertEquals(List.of(), failures.size() > 10 ? failures.subList(0, 10) : failures, failures.size() + " failures");
    // The comparison was about something: most verdicts decided, every level violated somewhere
    // but PL2, which these histories cannot violate (every read returns a committed, final write of
    // a transaction generated before it, so WR is acyclic); the corpus and core's tests cover it.
    for (final Level l : ORACLE.keySet()) {
      // Blind writes and lost updates leave the levels that need a version order UNKNOWN more often.
      final int least = Level.NEED_VERSION_ORDER.contains(l) ? HISTORIES * 6 / 10 : HISTORIES * 8 / 10;
      assertTrue(decided.getOrDefault(l, 0) > least, l + " decided " + decided + " times");
      assertTrue(l == Level.PL2 || violated.getOrDefault(l, 0) > 0, l + " never violated: " + violated);
    }
  }

  /** One tenant's published verdict and anomalies against check's and the oracle's. */
  private static void compare(final String tenant, final WeakHistories.Generated g, final TenantVerdict got,
      final List<Anomaly> published, final List<String> failures, final Map<Level, Integer> decided,
      final Map<Level, Integer> violated) {
    final String why = tenant + ": " + g.describe();
    final CheckResult want = OnlineChecker.check(fed(tenant, g.history()), options());
    final TenantVerdict wantVerdict = VerdictRecords.toAvro(tenant, want, 0, 0, 0, got.getAtMicros());
    if (!wantVerdict.getLevels().equals(got.getLevels())) {
      failures.add("verdicts " + got.getLevels() + " but check " + wantVerdict.getLevels() + "\n" + why);
      return;
    }
    final Map<String, Anomaly> onTopic = comparable(published);
    if (!onTopic.keySet().containsAll(got.getReport().getListedUniqueIds())) {
      failures.add("the verdict lists " + got.getReport().getListedUniqueIds() + ", not all on the topic "
          + onTopic.keySet() + "\n" + why);
      return;
    }
    if (!comparable(expectedRecords(tenant, want)).equals(onTopic)) {
      failures.add("anomalies " + names(published) + " differ from check's " + names(expectedRecords(tenant, want))
          + "\n" + why);
      return;
    }
    final Map<WeakLevel, Boolean> oracle = WeakLevelOracle.decide(g.history(), 0L);
    for (final Map.Entry<Level, Verdict> v : VerdictRecords.coreVerdicts(got).entrySet()) {
      final WeakLevel w = ORACLE.get(v.getKey());
      if (w == null || v.getValue() == Verdict.UNKNOWN) {
        continue;
      }
      decided.merge(v.getKey(), 1, Integer::sum);
      if (v.getValue() == Verdict.VIOLATED) {
        violated.merge(v.getKey(), 1, Integer::sum);
      }
      if (oracle.get(w) != (v.getValue() == Verdict.SATISFIED)) {
        failures.add(v.getKey() + " " + v.getValue() + " but the oracle says " + oracle.get(w) + "\n" + why);
      }
    }
  }

  private static CheckOptions options() {
    return new IsoWatchStreamsConfig(Map.of(IsoWatchStreamsConfig.CHECK_LEVELS_CONFIG, EVERY_LEVEL)).checkOptions();
  }

  /** The events in a random order (they have no times: any order is within the grace), a fifth twice. */
  private static List<TransactionEvent> shuffledWithDuplicates(final List<TransactionEvent> events, final Random rnd) {
    final List<TransactionEvent> out = new ArrayList<>(events);
    for (final TransactionEvent e : events) {
      if (rnd.nextInt(5) == 0) {
        out.add(e);
      }
    }
    java.util.Collections.shuffle(out, rnd);
    return out;
  }

  private static List<String> names(final List<Anomaly> anomalies) {
    return anomalies.stream().map(a -> a.getName() + "/" + a.getType() + a.getViolates() + a.getCycle().stream()
        .map(c -> c.getFrom() + "-" + c.getKind() + "(" + c.getKey() + ")->" + c.getTo()).toList()).sorted().toList();
  }

}
