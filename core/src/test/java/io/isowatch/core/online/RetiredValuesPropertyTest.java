package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.KeyDistribution;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Thin-air or stale, with deliberately tiny limits (docs/segmentation.md, "Retired versions"):
 * filters whose first stage has 64 bits and horizons of 10 to 60 transactions, over generated
 * histories of thousands of transactions with thin-air reads (values never written, on keys that
 * have many retired versions) and stale reads injected all along. Compared with the unsegmented
 * engine on the same stream:
 *
 * <ul>
 *   <li>never a ThinAirRead the unsegmented engine does not report (a filter's "no" is exact);
 *   <li>a real thin-air read called stale only within the documented probability: at most {@link
 *       HorizonSummary#FALSE_POSITIVE_BOUND} per read, so over all the reads here a handful at
 *       most (a fixed 64-bit filter, as before, called nearly all of them stale);
 *   <li>never a false explanation: every stale-read finding and StaleReadBeyondHorizon says that
 *       its writer is only probable, with the probability; every one whose read the unsegmented
 *       engine finds written really read a written value; and the reported probability stays
 *       under the bound.
 * </ul>
 */
class RetiredValuesPropertyTest {
  private static final int HISTORIES = Integer.getInteger("isowatch.retired.count", 30);
  private static final long GRACE = 2_000;
  /** Values never written by the generator (it counts up from 1 per key). */
  private static final long NEVER_WRITTEN = 1_000_000_000_000L;
  private static final Pattern PROBABILITY = Pattern.compile("false-positive probability at most ([0-9.eE+-]+)");

  @Test
  void shouldNeverNameAThinAirReadStaleNorStaleOneThinAirWhenTheRunsHoldEveryRetiredVersion() {
    // Given: the default run cap (every retired version fits), filters of 64 bits that get nothing
    final Totals t = check(Horizon.DEFAULT_MAX_RUN_BYTES);

    // Then: exact, so not a single thin-air read called stale, and every stale-read text a fact
    assertEquals(0, t.falseStale, t.falseStale + " thin-air reads called stale with exact runs");
    assertEquals(t.thinAirFull, t.thinAirSeg, "thin-air reads named ThinAirRead");
    assertTrue(t.certain > 100 && t.probable == 0, t.certain + " exact and " + t.probable + " filter texts");
  }

  @Test
  void shouldStayHonestWhenTheRunCapIsTinyAndMostVersionsOverflowToTheFilters() {
    // Given: 3 runs per run-set: a few keys exact, every other version in a filter of 64 bits
    final Totals t = check(3L * RetiredRuns.BYTES_PER_RUN);

    // Then: both kinds of text, each honest (checked per read in check)
    assertTrue(t.certain > 10 && t.probable > 10, t.certain + " exact and " + t.probable + " filter texts");
  }

  @Test
  void shouldKeepTheFilterBehaviourAndItsHonestyWhenTheRunCapIsZero() {
    // Given: no runs at all: every retired version in the filters, as before checkpoint format 4
    final Totals t = check(0);

    // Then
    assertEquals(0, t.certain, "an exact text without runs");
    assertTrue(t.probable > 100, "only " + t.probable + " filter texts");
  }

  /** What {@link #check} counted over all histories. */
  private static final class Totals {
    long thinAirFull;
    long thinAirSeg;
    long falseStale;
    long certain;
    long probable;
  }

  /**
   * Every history under a tiny horizon, filters of 64 bits and run-sets of {@code runBytes}, against
   * the unsegmented engine; fails on any wrong name or false text, and on more thin-air reads
   * called stale than the filters' probability allows.
   */
  private static Totals check(final long runBytes) {
    // Given
    final List<String> failures = new ArrayList<>();
    long thinAirFull = 0;
    long thinAirSeg = 0;
    long falseStale = 0;
    long stale = 0;
    long retired = 0;
    double expectedFalseStale = 0;
    final Totals totals = new Totals();
    for (int i = 0; i < HISTORIES; i++) {
      final Random rnd = new Random(31_000 + i);
      final History h = history(rnd, i);
      final CheckOptions options = CheckOptions.defaults().withMaxAnomalies(1_000_000);
      final Horizon horizon = Horizon.ofTransactions(10 + rnd.nextInt(50)).withFilters(64, Horizon.MAX_FILTER_BITS)
          .withMaxRunBytes(runBytes);

      // When
      final OnlineChecker full = new OnlineChecker(options, OnlineOptions.streaming(GRACE));
      final OnlineChecker seg = new OnlineChecker(options, OnlineOptions.streaming(GRACE).withHorizon(horizon));
      final List<OnlineEvent> events = new ArrayList<>();
      for (final Transaction t : h.transactions()) {
        full.accept(t);
        events.addAll(seg.accept(t));
      }
      full.flush();
      events.addAll(seg.flush());
      final CheckResult fr = full.result();
      final CheckResult sr = seg.result();

      // Then
      final String where = "history " + i + " horizon " + horizon.transactions();
      final Set<String> fullThinAir = thinAirReads(fr);
      final Set<String> segThinAir = thinAirReads(sr);
      thinAirFull += fullThinAir.size();
      thinAirSeg += segThinAir.size();
      retired += seg.retiredVersions();
      for (final String read : segThinAir) {
        if (!fullThinAir.contains(read)) {
          failures.add(where + ": ThinAirRead " + read + " is not one without segmentation");
        }
      }
      final Set<String> written = writtenValues(h);
      final Set<String> staleNamed = new HashSet<>();
      for (final OnlineEvent e : events) {
        if (e instanceof OnlineEvent.FindingPublished f && f.kind() == FindingKind.STALE_READ_BEYOND_HORIZON) {
          stale++;
          final String read = f.txn() + "/" + readOf(f.message());
          staleNamed.add(read);
          final double p = probability(f.message());
          failures.addAll(honest(where, f.message()));
          if (certain(f.message())) {
            totals.certain++;
            // A fact: the value was written (and its read is no thin-air read).
            if (fullThinAir.contains(read) || !written.contains(readOf(f.message()))) {
              failures.add(where + ": states as fact a pruned writer of a value never written: " + f.message());
            }
          } else {
            totals.probable++;
          }
          if (fullThinAir.contains(read)) {
            // A filter's false positive: allowed, with the probability the finding states.
            falseStale++;
            if (p > HorizonSummary.FALSE_POSITIVE_BOUND) {
              failures.add(where + ": a false stale read at probability " + p + " over the bound: " + f.message());
            }
          } else if (!written.contains(readOf(f.message()))) {
            failures.add(where + ": stale read of a value never written, yet not a ThinAirRead without "
                + "segmentation: " + f.message());
          }
        }
      }
      for (final String read : fullThinAir) {
        if (!segThinAir.contains(read) && !staleNamed.contains(read)) {
          failures.add(where + ": thin-air read " + read + " is neither ThinAirRead nor stale with segmentation");
        }
        // Each thin-air read asked the filters at a probability of at most the bound.
        expectedFalseStale += HorizonSummary.FALSE_POSITIVE_BOUND;
      }
      for (final Anomaly a : sr.anomalies()) {
        if ("StaleReadBeyondHorizon".equals(a.name())) {
          failures.addAll(honest(where, a.explanation()));
          if (certain(a.explanation()) && !written.contains(a.read().key() + "=" + a.read().value())) {
            failures.add(where + ": StaleReadBeyondHorizon states a pruned writer as fact for a value never written: "
                + a.explanation());
          }
          if (!a.explanation().contains("Either way SSER is violated")) {
            failures.add(where + ": StaleReadBeyondHorizon without the false-positive case: " + a.explanation());
          }
          if (fr.verdicts().get(Level.SSER) != Verdict.VIOLATED) {
            failures.add(where + ": StaleReadBeyondHorizon where the whole history satisfies SSER");
          }
        }
      }
      if (seg.retiredFalsePositiveRatio() > HorizonSummary.FALSE_POSITIVE_BOUND) {
        failures.add(where + ": false-positive probability " + seg.retiredFalsePositiveRatio() + " over the bound");
      }
      if (sr.findings().stream().anyMatch(f -> f.kind() == FindingKind.RETIRED_FILTER_SATURATED)) {
        failures.add(where + ": the filters report saturation under their cap");
      }
    }
    assertEquals(List.of(), failures.subList(0, Math.min(5, failures.size())), failures.size() + " problems");
    // Enough of each kind to mean something, with filters far past their first 64 bits.
    assertTrue(thinAirFull > 100, "only " + thinAirFull + " thin-air reads");
    assertTrue(stale > 100, "only " + stale + " stale reads");
    assertTrue(retired > 100_000, "only " + retired + " retired versions");
    // Poisson with mean expectedFalseStale (about 0.5 here): 5 or more has probability under 2e-4.
    assertTrue(falseStale <= Math.max(4, 3 * expectedFalseStale), falseStale + " thin-air reads called stale, "
        + "expected about " + expectedFalseStale + " (" + thinAirSeg + " of " + thinAirFull + " named ThinAirRead)");
    totals.thinAirFull = thinAirFull;
    totals.thinAirSeg = thinAirSeg;
    totals.falseStale = falseStale;
    return totals;
  }

  @Test
  void shouldReportSaturationAndStayHonestWhenTheFiltersAreCappedTiny() {
    // Given: filters capped at 256 bits, far too few for the versions retired, and no runs
    final Random rnd = new Random(4_242);
    final History h = history(rnd, 1);
    final CheckOptions options = CheckOptions.defaults().withMaxAnomalies(1_000_000);
    final Horizon horizon = Horizon.ofTransactions(20).withFilters(64, 256).withMaxRunBytes(0);

    // When
    final FullAndSegmented run = FullAndSegmented.run(h, options, GRACE, horizon);
    final OnlineChecker full = run.full();
    final OnlineChecker seg = run.seg();
    final CheckResult sr = seg.result();

    // Then: past the cap thin-air reads are taken for stale ones, and that is said, never hidden
    assertTrue(seg.retiredFalsePositiveRatio() > HorizonSummary.FALSE_POSITIVE_BOUND, "" + seg.retiredFalsePositiveRatio());
    assertTrue(sr.findings().stream().anyMatch(f -> f.kind() == FindingKind.RETIRED_FILTER_SATURATED), "no finding");
    assertTrue(thinAirReads(sr).size() < thinAirReads(full.result()).size(), "the cap changed nothing");
    for (final String read : thinAirReads(sr)) {
      assertTrue(thinAirReads(full.result()).contains(read), read);
    }
    assertTrue(sr.stats().retired().falsePositiveRatio() > HorizonSummary.FALSE_POSITIVE_BOUND);
    assertTrue(sr.stats().retired().filterBytes() * 8 <= 2 * 256);
  }

  @Test
  void shouldNameEveryThinAirReadWhenTheFiltersAreCappedTinyButTheRunsHoldEverything() {
    // Given: the same history and filters capped at 256 bits, with the default run cap
    final Random rnd = new Random(4_242);
    final History h = history(rnd, 1);
    final CheckOptions options = CheckOptions.defaults().withMaxAnomalies(1_000_000);
    final Horizon horizon = Horizon.ofTransactions(20).withFilters(64, 256);

    // When
    final FullAndSegmented run = FullAndSegmented.run(h, options, GRACE, horizon);
    final CheckResult sr = run.seg().result();

    // Then: exact, the filters empty, nothing saturated
    assertEquals(thinAirReads(run.full().result()), thinAirReads(sr));
    assertTrue(!thinAirReads(sr).isEmpty(), "no thin-air read: the case is too weak");
    assertEquals(0.0, run.seg().retiredFalsePositiveRatio());
    assertEquals(run.seg().retiredVersions(), run.seg().retiredExactVersions());
    assertTrue(sr.findings().stream().noneMatch(f -> f.kind() == FindingKind.RETIRED_FILTER_SATURATED));
    assertTrue(sr.stats().retired().runs().runs() > 0);
    assertEquals(0, sr.stats().retired().filterBytes());
  }

  /** Whether a text rests on an exact run (it states the pruned writer as a fact). */
  private static boolean certain(final String text) {
    return text.contains("the exact record of retired versions shows")
        || text.contains("The exact record of retired versions shows");
  }

  /**
   * Problems of a stale-read text: one that rests on a filter hit must say that the writer is only
   * probable, with the probability; one that rests on a run says neither (the caller checks that
   * its value was written).
   */
  private static List<String> honest(final String where, final String text) {
    final List<String> out = new ArrayList<>();
    final boolean probable = text.contains("probably written") && PROBABILITY.matcher(text).find();
    if (certain(text) == probable) {
      out.add(where + ": neither exact nor a stated probability, or both: " + text);
    }
    if (text.contains("were pruned)") || text.contains("a version older than the retained horizon")) {
      out.add(where + ": claims a pruned writer as fact: " + text);
    }
    return out;
  }

  private static double probability(final String message) {
    final Matcher m = PROBABILITY.matcher(message);
    return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
  }

  /** "key=value" of a stale-read message ("transaction T read k=v, ..."). */
  private static String readOf(final String message) {
    final int at = message.indexOf(" read ") + 6;
    return message.substring(at, message.indexOf(',', at));
  }

  /** Reader id and "key=value" of every ThinAirRead listed. */
  private static Set<String> thinAirReads(final CheckResult r) {
    final Set<String> out = new HashSet<>();
    for (final Anomaly a : r.anomalies()) {
      if ("ThinAirRead".equals(a.name())) {
        final Transaction t = a.transactions().get(0);
        for (final Op op : t.ops()) {
          if (!op.isWrite() && a.explanation().contains(t.id() + " read " + op.key() + "=" + op.value() + ",")) {
            out.add(t.id() + "/" + op.key() + "=" + op.value());
          }
        }
      }
    }
    return out;
  }

  /** Every key=value written, and every key's initial value (0), the initial transaction's write. */
  private static Set<String> writtenValues(final History h) {
    final Set<String> out = new HashSet<>();
    for (final Transaction t : h.transactions()) {
      for (final Op op : t.ops()) {
        out.add(op.key() + "=0");
        if (op.isWrite()) {
          out.add(op.key() + "=" + op.value());
        }
      }
    }
    return out;
  }

  /**
   * A generated history with stale reads and thin-air reads on existing keys (a read-only
   * transaction now and then reads a value never written) all along, so that most of them come
   * when many versions have retired.
   */
  private static History history(final Random rnd, final int i) {
    final GeneratorConfig config = GeneratorConfig.defaults().withSeed(500 + i)
        .withTransactions(4_000 + rnd.nextInt(4_000)).withSessions(4 + rnd.nextInt(8))
        .withKeys(5 + rnd.nextInt(30)).withDistribution(new KeyDistribution.Uniform())
        .withInjections(List.of(new Injection(InjectedKind.values()[rnd.nextInt(InjectedKind.values().length)], 1)))
        .withInjectAt(rnd.nextDouble());
    final History stale = HistoryMutations.withStaleReads(MtHistoryGenerator.generateHistory(config), rnd, 0.01);
    final Map<String, Integer> seen = new HashMap<>();
    final History.Builder b = History.builder();
    int n = 0;
    for (final Transaction t : stale.transactions()) {
      Transaction out = t;
      final boolean readOnly = t.ops().stream().noneMatch(Op::isWrite);
      if (readOnly && t.ops().size() == 1 && seen.getOrDefault(t.ops().get(0).key(), 0) > 3 && rnd.nextDouble() < 0.05) {
        final Op r = t.ops().get(0);
        out = new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(),
            List.of(Op.read(r.key(), NEVER_WRITTEN + n++)), t.tenant(), t.level(), t.line());
      }
      for (final Op op : t.ops()) {
        if (op.isWrite()) {
          seen.merge(op.key(), 1, Integer::sum);
        }
      }
      b.add(out);
    }
    return b.build();
  }
}
