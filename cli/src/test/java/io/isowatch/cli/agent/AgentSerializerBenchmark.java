package io.isowatch.cli.agent;

import io.isowatch.agent.sink.KafkaTransactionSink;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CPU per event of the agent's value serializer against the registry's, alternated in one JVM
 * (thread CPU time, not wall: the machine is shared). Not run by default (tag {@code benchmark});
 * docs/benchmarks.md, "ciflake".
 */
@Tag("benchmark")
class AgentSerializerBenchmark {
  private static final Logger LOG = LoggerFactory.getLogger(AgentSerializerBenchmark.class);
  private static final int EVENTS = 20_000;
  private static final int ROUNDS = 3;

  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  @Test
  void measureCpuPerEvent() {
    final AvroSerdeConfig serde = AvroSerdeConfig.development(REGISTRY.url());
    final Serializer<TransactionEvent> registry = new AvroSerdes(serde).valueSerde(TransactionEvent.class).serializer();
    final Serializer<TransactionEvent> agent = KafkaTransactionSink.valueSerializer(serde);
    final List<TransactionEvent> events = events();
    // Warm-up: both paths JIT-compiled, the schema registered and looked up
    run(registry, events.subList(0, 2_000));
    run(agent, events.subList(0, 2_000));
    for (int round = 1; round <= ROUNDS; round++) {
      final long[] r = run(registry, events);
      final long[] a = run(agent, events);
      LOG.info("round=[{}] events=[{}] registryUsPerEvent=[{}] agentUsPerEvent=[{}] ratio=[{}] registryBytes=[{}] agentBytes=[{}]",
          round, events.size(), String.format("%.2f", r[0] / 1e3 / events.size()),
          String.format("%.2f", a[0] / 1e3 / events.size()), String.format("%.1f", (double) r[0] / a[0]), r[1], a[1]);
    }
  }

  /** Thread CPU nanoseconds and bytes written for serializing every event once. */
  private static long[] run(final Serializer<TransactionEvent> s, final List<TransactionEvent> events) {
    final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    final long t0 = mx.getCurrentThreadCpuTime();
    long bytes = 0;
    for (final TransactionEvent e : events) {
      bytes += s.serialize("isowatch.txn-events.v1", e).length;
    }
    return new long[] {mx.getCurrentThreadCpuTime() - t0, bytes};
  }

  /** Bank-like transfers: two reads and two writes, timed, on 1,000 accounts, 50 sessions. */
  private static List<TransactionEvent> events() {
    final List<TransactionEvent> out = new ArrayList<>(EVENTS);
    for (int i = 0; i < EVENTS; i++) {
      final String from = "account-" + (i * 7 % 1_000);
      final String to = "account-" + (i * 13 % 1_000);
      final List<Op> ops = List.of(Op.read(from, (long) i), Op.read(to, (long) i + 1),
          Op.write(from, (long) i + 2), Op.write(to, (long) i + 3));
      final long start = 1_700_000_000_000_000L + i * 1_000L;
      out.add(TransactionEvents.fromCore("bank", new Transaction("t" + i, "s" + (i % 50), i / 50,
          TxnStatus.COMMITTED, start, start + 500, ops, "bank", null, 0)));
    }
    return out;
  }
}
