package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * What a segmented engine finds, it publishes (issue 6, the streaming soak that published 48 of
 * its 49 injected lost updates): the soak's stream, scaled down. One tenant's MT workload with,
 * after every few hundred of its transactions, a chunk of 20 transactions on its own keys and
 * sessions holding one injected lost update; strictly sequential times 2 µs apart, with now and
 * then a stall (the producer waiting for the checker) after which one arrival releases many
 * buffered transactions at once; {@code prune()} and {@code checkpoint()} between arrivals at
 * pseudo-random points, as the streaming punctuator calls them; a flush at the end, as the idle
 * flush. The engine also cuts by itself at twice its horizon, inside {@code accept} or {@code
 * flush}, right after releases that published: every chunk's lost update must still come out of
 * the call that found it, exactly once, and be in the result.
 */
class SegmentedStreamEventsTest {
  private static final int STREAMS = Integer.getInteger("isowatch.segmented-events.count", 6);
  private static final int CHUNK = 20;

  @Test
  void shouldPublishEveryInjectedLostUpdateWhenCutsFallInsideAcceptAndFlush() {
    final List<String> failures = new ArrayList<>();
    long cuts = 0;
    for (int i = 0; i < STREAMS; i++) {
      // Given
      final Random rnd = new Random(6_000 + i);
      final int horizon = 300 + rnd.nextInt(700);
      final long grace = new long[] {100, 2_000, 20_000}[i % 3];
      final int every = 200 + rnd.nextInt(600);
      final double pruneRate = new double[] {0.0005, 0.005, 0.05}[rnd.nextInt(3)];
      final double stallRate = i % 2 == 0 ? 0 : 0.002;
      final String where = "stream " + i + " (horizon " + horizon + ", grace " + grace + " µs, chunk every " + every
          + ", prune rate " + pruneRate + ", stall rate " + stallRate + ")";
      final OnlineChecker engine = new OnlineChecker(CheckOptions.defaults(),
          OnlineOptions.streaming(grace).withHorizon(Horizon.ofTransactions(horizon)));
      final Stream stream = new Stream(rnd, grace, stallRate, pruneRate);
      final TreeMap<String, Integer> published = new TreeMap<>();

      // When
      final List<Transaction> workload = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults()
          .withSeed(42 + i).withTransactions(8_000).withSessions(20).withKeys(1_000)).transactions();
      int chunks = 0;
      for (int w = 0; w < workload.size(); w++) {
        stream.send(engine, workload.get(w), "", published);
        if ((w + 1) % every == 0) {
          for (final Transaction t : chunk(chunks)) {
            stream.send(engine, t, "a" + chunks + "-", published);
          }
          chunks++;
        }
      }
      collect(engine.flush(), published);

      // Then
      final TreeMap<String, Integer> expected = new TreeMap<>();
      for (int k = 0; k < chunks; k++) {
        expected.put(pair(k), 1);
      }
      if (!expected.equals(published)) {
        failures.add(where + ": lost updates published " + published + ", expected each chunk's once: " + expected);
      }
      final Set<String> listed = new TreeSet<>();
      for (final Anomaly a : engine.result().anomalies()) {
        if ("LostUpdate".equals(a.name())) {
          listed.add(new TreeSet<>(a.txnIds()).toString());
        }
      }
      if (!listed.equals(expected.keySet())) {
        failures.add(where + ": lost updates in result() " + listed + ", expected " + expected.keySet());
      }
      cuts += engine.cuts();
    }
    assertEquals(List.of(), failures);
    // The regression needs cuts inside calls that released: many cuts make that certain enough.
    assertTrue(cuts > 20L * STREAMS, "only " + cuts + " cuts: the streams did not exercise segmentation");
  }

  /** The soak's chunk {@code k}: a small history of its own with one lost update (inj1-a, inj1-b). */
  private static List<Transaction> chunk(final int k) {
    return MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(1_000 + k)
        .withTransactions(CHUNK).withSessions(10).withKeys(10).withInjectAt(0.5)
        .withInjections(Injection.parseList("LostUpdate:1"))).transactions();
  }

  /** The ids of chunk {@code k}'s lost update, as a sorted set's text. */
  private static String pair(final int k) {
    return new TreeSet<>(List.of("a" + k + "-inj1-a-0", "a" + k + "-inj1-b-0")).toString();
  }

  private static void collect(final List<OnlineEvent> events, final TreeMap<String, Integer> published) {
    for (final OnlineEvent e : events) {
      if (e instanceof OnlineEvent.AnomalyPublished p && "LostUpdate".equals(p.anomaly().name())) {
        published.merge(new TreeSet<>(p.anomaly().txnIds()).toString(), 1, Integer::sum);
      }
    }
  }

  /** The soak producer's timing: end = previous end + 2 µs, start = end - 1, stalls aside. */
  private static final class Stream {
    private final Random rnd;
    private final long grace;
    private final double stallRate;
    private final double pruneRate;
    private long end = 1_000_000;

    Stream(final Random rnd, final long grace, final double stallRate, final double pruneRate) {
      this.rnd = rnd;
      this.grace = grace;
      this.stallRate = stallRate;
      this.pruneRate = pruneRate;
    }

    void send(final OnlineChecker engine, final Transaction t, final String prefix,
        final TreeMap<String, Integer> published) {
      // A stall of up to twice the grace: the next arrival releases up to everything buffered.
      end += rnd.nextDouble() < stallRate ? 2 + rnd.nextLong(2 * grace) : 2;
      final List<Op> ops = new ArrayList<>(t.ops().size());
      for (final Op op : t.ops()) {
        ops.add(new Op(op.type(), prefix + op.key(), op.value()));
      }
      collect(engine.accept(new Transaction(prefix + t.id(), prefix + t.session(), t.seq(), t.status(), end - 1, end,
          ops, t.tenant(), t.level(), t.line())), published);
      if (rnd.nextDouble() < pruneRate && engine.prune()) {
        // As the punctuator: a checkpoint right after a prune that cut.
        assertTrue(engine.checkpoint().length > 0);
      }
    }
  }
}
