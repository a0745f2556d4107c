package io.isowatch.cli.demo;

import io.isowatch.agent.run.AgentConfig;
import io.isowatch.agent.run.AgentRun;
import io.isowatch.agent.run.MicroClock;
import io.isowatch.agent.run.RunSummary;
import io.isowatch.agent.sink.KafkaTransactionSink;
import io.isowatch.agent.sink.SinkException;
import io.isowatch.agent.target.Target;
import io.isowatch.agent.target.Targets;
import io.isowatch.agent.workload.KeySpace;
import io.isowatch.agent.workload.ShapeMix;
import io.isowatch.agent.workload.WorkloadConfig;
import io.isowatch.core.gen.KeyDistribution;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo's agents: one {@link AgentRun} per {@link DemoTenant}, each on its own thread,
 * publishing through the agent's real Kafka sink, running until {@link #close()}.
 */
public final class DemoAgents implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DemoAgents.class);
  private static final int SESSIONS = 4;
  private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(5);

  private record Running(DemoTenant tenant, AgentRun run, Target target, KafkaTransactionSink sink, Thread thread) {}

  private final List<Running> running = new ArrayList<>();
  private final Map<String, RunSummary> summaries = new ConcurrentHashMap<>();
  private final Map<String, Throwable> failures = new ConcurrentHashMap<>();

  private DemoAgents() {}

  /**
   * Starts one agent per tenant.
   *
   * @param rate transactions per second of each agent
   * @param keys the key space of each agent
   */
  public static DemoAgents start(final List<DemoTenant> tenants, final String bootstrap, final URI registry,
      final double rate, final int keys, final long seed) throws SinkException, InterruptedException {
    final DemoAgents agents = new DemoAgents();
    try {
      for (final DemoTenant t : tenants) {
        agents.startOne(t, bootstrap, registry, rate, keys, seed);
      }
      return agents;
    } catch (final SinkException | InterruptedException | RuntimeException e) {
      agents.close();
      throw e;
    }
  }

  private void startOne(final DemoTenant t, final String bootstrap, final URI registry, final double rate,
      final int keys, final long seed) throws SinkException, InterruptedException {
    final boolean faulty = t.target().startsWith("faulty");
    final WorkloadConfig workload = new WorkloadConfig(new KeySpace(keys), KeyDistribution.parse("uniform"),
        ShapeMix.parse(faulty ? "full" : "paper"), null, seed);
    final AgentConfig config = new AgentConfig(SESSIONS, null, null, rate, workload, null, null, 0, null,
        t.tenant(), t.reconnectAfterAbort());
    final Target target = Targets.create(t.target(), t.isolation(), "kv", LOCK_TIMEOUT, seed);
    final KafkaTransactionSink sink = KafkaTransactionSink.create(bootstrap, AvroSerdeConfig.development(registry),
        t.tenant());
    final AgentRun run = new AgentRun(config, target, sink, MicroClock.system(), null);
    final Thread thread = new Thread(() -> {
      try {
        summaries.put(t.tenant(), run.run());
      } catch (final Exception e) {
        failures.put(t.tenant(), e);
        LOG.error("Demo agent failed tenant=[{}]", t.tenant(), e);
      }
    }, "isowatch-demo-agent-" + t.tenant());
    running.add(new Running(t, run, target, sink, thread));
    thread.start();
  }

  /** Agents that stopped by themselves, with why (a target or sink failure). */
  public Map<String, Throwable> failures() {
    return Map.copyOf(failures);
  }

  /** Each finished agent's summary, by tenant, in start order (after {@link #close()}). */
  public Map<String, RunSummary> summaries() {
    final Map<String, RunSummary> ordered = new LinkedHashMap<>();
    for (final Running r : running) {
      final RunSummary s = summaries.get(r.tenant().tenant());
      if (s != null) {
        ordered.put(r.tenant().tenant(), s);
      }
    }
    return ordered;
  }

  /** Stops every agent after its current transaction, then flushes and closes its sink and target. */
  @Override
  public void close() throws InterruptedException {
    running.forEach(r -> r.run().stop());
    for (final Running r : running) {
      r.thread().join();
      try {
        r.sink().close();
      } catch (final SinkException e) {
        failures.putIfAbsent(r.tenant().tenant(), e);
        LOG.warn("Demo agent's sink did not close cleanly tenant=[{}] error=[{}]", r.tenant().tenant(), e.getMessage());
      }
      try {
        r.target().close();
      } catch (final Exception e) {
        LOG.warn("Demo agent's target did not close cleanly tenant=[{}] error=[{}]", r.tenant().tenant(), e.toString());
      }
    }
  }
}
