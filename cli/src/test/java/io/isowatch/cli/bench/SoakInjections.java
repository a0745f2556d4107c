package io.isowatch.cli.bench;

import io.isowatch.core.gen.GeneratedHistory;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedAnomaly;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The anomalies the soak of record injects (issue 10 item 8): at given fractions of the run, one
 * instance of each given kind, and what each must be published as.
 *
 * <p>A generator kind ({@link InjectedKind}: LostUpdate, ThinAirRead, WriteSkew, …) is the core
 * generator's own minimal pattern (MTC Figure 5), taken through its public API: a history of
 * exactly the pattern's transactions with one injection is the pattern alone, on fresh keys and
 * fresh sessions. Its names are prefixed per point and kind ({@code p10-LostUpdate-inj1-a-0}) and
 * its times are moved to the moment it is sent, keeping their shape (every transaction of the
 * pattern overlaps the others, so no real-time edge ties it to the background). It must be
 * published under {@link InjectedKind#patternName()}, with exactly its transactions.
 *
 * <p>{@value #STALE_READ} is a genuine stale read of the background: a fresh session reads a
 * background key's value written and overwritten near the start of the run (the producer keeps a
 * few), so far beyond the horizon that its writer and overwriter are pruned; it starts after both
 * ended. With a horizon, the checker's semantics (docs/segmentation.md, "What becomes undecidable")
 * make it a {@value #STALE_READ_FINDING} finding on that key naming the reader, plus a
 * {@value #STALE_READ_NAME} anomaly of the reader alone (real time proves the SSER violation). A
 * ThinAirRead for it would be a false claim (the value was written); so would be a
 * StaleReadBeyondHorizon for an injected thin-air read.
 */
final class SoakInjections {
  /** The kind name of the stale read of the background (not a generator pattern). */
  static final String STALE_READ = "StaleRead";
  /** The anomaly a stale read beyond the horizon is published as. */
  static final String STALE_READ_NAME = "StaleReadBeyondHorizon";
  /** The finding the verdict carries for it. */
  static final String STALE_READ_FINDING = "STALE_READ_BEYOND_HORIZON";
  /** Item 8's defaults. */
  static final String DEFAULT_AT = "0.1,0.5,0.999";
  static final String DEFAULT_KINDS = "LostUpdate,ThinAirRead,WriteSkew,StaleRead";

  private SoakInjections() {}

  /** Where a batch (one instance of every kind) goes: before the workload's transaction at {@code position}. */
  record Point(String label, long position) {}

  /** Events of one injected instance, ready to send, and what must be published for it. */
  record Batch(List<TransactionEvent> events, SoakCheck.Expected expected) {}

  /** Reads {@code 0.1,0.5,0.999}: fractions of the run, each in (0, 1); blank: none. */
  static List<Double> fractions(final String csv) {
    if (csv == null || csv.isBlank()) {
      return List.of();
    }
    return Arrays.stream(csv.split(",")).map(String::trim).map(s -> {
      final double f = Double.parseDouble(s);
      if (!(f > 0 && f < 1)) {
        throw new IllegalArgumentException("--soak-inject-at: each fraction must be in (0, 1), not " + s);
      }
      return f;
    }).sorted().toList();
  }

  /** Reads {@code LostUpdate,ThinAirRead,WriteSkew,StaleRead} (any generator kind, any case); blank: none. */
  static List<String> kinds(final String csv) {
    if (csv == null || csv.isBlank()) {
      return List.of();
    }
    return Arrays.stream(csv.split(",")).map(String::trim).map(s -> s.equalsIgnoreCase(STALE_READ) ? STALE_READ
        : InjectedKind.parse(s).patternName()).toList();
  }

  /** Transactions one batch of {@code kinds} adds. */
  static int batchTransactions(final List<String> kinds) {
    return kinds.stream().mapToInt(k -> k.equals(STALE_READ) ? 1 : InjectedKind.parse(k).transactions()).sum();
  }

  /** The points of a run of {@code target} transactions: {@code floor(fraction × target)}, labelled {@code 10%}. */
  static List<Point> points(final List<Double> fractions, final long target) {
    return fractions.stream().map(f -> new Point(percent(f), (long) Math.floor(f * target))).toList();
  }

  /** {@code 0.999} as {@code 99.9%}. */
  static String percent(final double fraction) {
    return new BigDecimal(Double.toString(fraction)).movePointRight(2).stripTrailingZeros().toPlainString() + "%";
  }

  /**
   * One generator pattern of {@code kind} for {@code tenant}, its names prefixed with the point and
   * kind, its first transaction starting at {@code baseMicros} and the others keeping their offsets.
   */
  static Batch pattern(final String kindName, final Point point, final String tenant, final long baseMicros) {
    final InjectedKind kind = InjectedKind.parse(kindName);
    final GeneratedHistory g = MtHistoryGenerator.generateWithSummary(GeneratorConfig.defaults()
        .withTransactions(kind.transactions()).withInjectAt(0).withInjections(List.of(new Injection(kind, 1))));
    final InjectedAnomaly instance = g.summary().injected().get(0);
    final List<Transaction> txns = g.history().transactions();
    if (txns.size() != kind.transactions() || !instance.txnIds().equals(txns.stream().map(Transaction::id).toList())) {
      throw new IllegalStateException("the generator's " + kind.patternName() + " is not its pattern alone: " + txns);
    }
    final String prefix = "p" + point.label().replace("%", "") + "-" + kind.patternName() + "-";
    final long first = txns.stream().mapToLong(Transaction::start).min().orElseThrow();
    final List<TransactionEvent> events = new ArrayList<>();
    for (final Transaction t : txns) {
      final TransactionEvent e = StreamingBenchmark.renamed(prefix, TransactionEvents.fromCore(tenant, t));
      e.setStartMicros(baseMicros + t.start() - first);
      e.setEndMicros(baseMicros + t.end() - first);
      events.add(e);
    }
    final List<String> ids = instance.txnIds().stream().map(id -> prefix + id).toList();
    return new Batch(events, new SoakCheck.Expected(kind.patternName() + " at " + point.label(), kind.patternName(),
        ids, null, null));
  }

  /**
   * The stale read at {@code point}: a fresh session's one transaction reading {@code key=value},
   * a value of the background written at position {@code writtenAt} and overwritten at
   * {@code overwrittenAt}. Its times are set when it is sent.
   */
  static Batch staleRead(final Point point, final String tenant, final String key, final long value,
      final long writtenAt, final long overwrittenAt) {
    final String session = "p" + point.label().replace("%", "") + "-" + STALE_READ + "-r";
    final Transaction t = new Transaction(session + "-0", session, 0, TxnStatus.COMMITTED, 0, 1,
        List.of(Op.read(key, value)), null, null, 0);
    final String what = String.format(Locale.ROOT, "StaleRead at %s (%s=%d, written at #%,d, overwritten at #%,d, "
        + "read at #%,d)", point.label(), key, value, writtenAt, overwrittenAt, point.position());
    return new Batch(List.of(TransactionEvents.fromCore(tenant, t)),
        new SoakCheck.Expected(what, STALE_READ_NAME, List.of(t.id()), STALE_READ_FINDING, key));
  }
}
