package io.isowatch.agent.cli;

import io.isowatch.agent.run.AgentConfig;
import io.isowatch.agent.run.AgentRun;
import io.isowatch.agent.run.MicroClock;
import io.isowatch.agent.run.RunSummary;
import io.isowatch.agent.sink.CollectingSink;
import io.isowatch.agent.sink.JsonlFileSink;
import io.isowatch.agent.sink.KafkaTransactionSink;
import io.isowatch.agent.sink.SinkException;
import io.isowatch.agent.sink.TeeSink;
import io.isowatch.agent.sink.TransactionSink;
import io.isowatch.agent.target.IsolationMix;
import io.isowatch.agent.target.Target;
import io.isowatch.agent.target.TargetException;
import io.isowatch.agent.target.Targets;
import io.isowatch.agent.target.faulty.FaultyTarget;
import io.isowatch.agent.workload.KeySpace;
import io.isowatch.agent.workload.ListAppend;
import io.isowatch.agent.workload.RateLimiter;
import io.isowatch.agent.workload.ShapeMix;
import io.isowatch.agent.workload.WorkloadConfig;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.DeclaredLevels;
import io.isowatch.core.check.Level;
import io.isowatch.core.gen.KeyDistribution;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.schemas.config.KafkaClientConfig;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code isowatch agent}: runs a mini-transaction workload against a database and records every
 * transaction, as the client saw it, into a native JSONL history and/or to Kafka (the streaming
 * checker's input topic). Progress goes to stderr every
 * few seconds; the summary goes to stdout (stderr when the history itself goes to stdout).
 */
@Command(
    name = "agent",
    sortOptions = false,
    description = "Run mini-transaction or list-append workloads against a database and record every transaction as a history.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:the run completed and everything was recorded",
      "1:the run failed (target unreachable, a session or the sink failed); the summary says why",
      "2:invalid usage"
    })
public final class AgentCommand implements Callable<Integer> {
  /** Enough listed anomalies that every injected kind can show up among them. */
  private static final int CHECK_MAX_ANOMALIES = 10_000;

  @Spec private CommandSpec spec;

  @Option(names = "--target", required = true, paramLabel = "jdbc:…|h2|faulty:…",
      description = "A JDBC URL (jdbc:postgresql://127.0.0.1:5432/test, jdbc:mariadb://127.0.0.1:3306/test?sslMode=disable, "
          + "jdbc:h2:…), h2 (private in-memory H2), or faulty:FAULT=RATE,… (faults: lostupdate, staleread, "
          + "abortedread, intermediateread, fracturedread, longfork, causality, session, or all).")
  private String target;

  @Option(names = "--isolation", paramLabel = "LEVEL", defaultValue = "serializable",
      description = "read-committed|repeatable-read|serializable|snapshot (snapshot: H2 only), or a weighted mix per "
          + "transaction, mix:serializable=1,read-committed=3 (JDBC targets; with --check, a mix is also decided as MIXED, "
          + "each transaction at its own level); each transaction's level is recorded "
          + "(default: ${DEFAULT-VALUE}).")
  private String isolation;

  @Option(names = "--sessions", paramLabel = "N", defaultValue = "8",
      description = "Concurrent sessions, one thread and one connection each (default: ${DEFAULT-VALUE}).")
  private int sessions;

  @Option(names = "--keys", paramLabel = "K", defaultValue = "100", description = "Number of keys (default: ${DEFAULT-VALUE}).")
  private int keys;

  @Option(names = "--dist", paramLabel = "DIST", defaultValue = "uniform",
      description = "uniform|zipf[:θ]|hotspot[:F1:F2]|exponential[:λ], as isowatch generate reads it: θ = 0.99 by default; "
          + "hotspot: the smaller fraction of keys gets the larger fraction of accesses, either order (0.2:0.8); "
          + "λ over the key range (10) (default: ${DEFAULT-VALUE}).")
  private String dist;

  @Option(names = "--txns", paramLabel = "N", description = "Transactions to run over all sessions, split evenly between them (retries count).")
  private Long txns;

  @Option(names = "--duration", paramLabel = "TIME", description = "How long to run, e.g. 30s, 10m (with --txns: whichever first).")
  private String duration;

  @Option(names = "--rate", paramLabel = "R", description = "Target transactions per second over all sessions (token bucket).")
  private Double rate;

  @Option(names = "--shapes", paramLabel = "LIST",
      description = "Shapes and presets, comma-separated: R1, R1R2, R1W1, R1W1W1, R1R2W1, R1R2W2, R1R2W1W2, R1W1R2W2, CAS; "
          + "presets paper, full, writeskew, cas (default: paper; full for faulty targets).")
  private String shapes;

  @Option(names = "--workload", paramLabel = "W", defaultValue = "mini-transactions",
      description = "mini-transactions (register reads and writes, by --shapes) or list-append (Elle's: each transaction "
          + "reads whole lists and blindly appends unique elements; JDBC targets; docs/list-append.md) "
          + "(default: ${DEFAULT-VALUE}).")
  private String workloadName;

  @Option(names = "--ops-per-txn", paramLabel = "N",
      description = "With --workload list-append: each transaction has 1 to N operations (default: 4).")
  private Integer opsPerTxn;

  @Option(names = "--read-only-ratio", paramLabel = "R", description = "Probability of a read-only shape (default: shapes drawn uniformly).")
  private Double readOnlyRatio;

  @Option(names = "--seed", paramLabel = "S", description = "Workload seed (default: random, printed in the summary).")
  private Long seed;

  @Option(names = "--snapshot-every", paramLabel = "N|TIME",
      description = "Also run a read-only transaction over all keys every N transactions or every TIME.")
  private String snapshotEvery;

  @Option(names = "--retries", paramLabel = "N", defaultValue = "0",
      description = "Retry an aborted transaction up to N times, each retry a new transaction (default: ${DEFAULT-VALUE}).")
  private int retries;

  @Option(names = "--reconnect-after-abort",
      description = "Open a new connection (a new session) after every aborted transaction. Against H2 2.5.252 "
          + "URLs given by hand, add ;OPTIMIZE_REUSE_RESULTS=FALSE instead (the h2 target does): H2 reuses stale "
          + "query results otherwise.")
  private boolean reconnectAfterAbort;

  @Option(names = "--out", paramLabel = "FILE", description = "Write the history as native JSONL to FILE (- for stdout).")
  private String out;

  @Option(names = "--table", paramLabel = "NAME", defaultValue = "kv",
      description = "Table holding the keys; dropped and recreated at start (default: ${DEFAULT-VALUE}).")
  private String table;

  @Option(names = "--lock-timeout", paramLabel = "TIME", defaultValue = "5s",
      description = "Lock wait timeout set on every connection (default: ${DEFAULT-VALUE}).")
  private String lockTimeout;

  @Option(names = "--progress", paramLabel = "TIME", defaultValue = "5s",
      description = "Progress line on stderr this often; 0 for none (default: ${DEFAULT-VALUE}).")
  private String progress;

  @Option(names = "--check", description = "Also check the recorded history in-process, with the engine of isowatch "
      + "check, and print the verdicts (keeps it in memory).")
  private boolean check;

  @Option(names = "--tenant", paramLabel = "T",
      description = "Tenant recorded on every transaction; with --kafka, also the record key.")
  private String tenant;

  @Option(names = "--kafka", paramLabel = "BOOTSTRAP",
      description = "Publish every transaction to isowatch.txn-events.v1 at these brokers (needs --registry, --tenant).")
  private String kafka;

  @Option(names = "--registry", paramLabel = "URL",
      description = "Schema registry base URL for --kafka, e.g. http://127.0.0.1:8081.")
  private String registry;

  @Option(names = "--dev",
      description = "With --kafka: register the TransactionEvent schema if missing (by default it must be registered).")
  private boolean dev;

  @Option(names = "--client-config", paramLabel = "FILE",
      description = "With --kafka: client settings in isowatch run's format: kafka.* (e.g. kafka.security.protocol=SASL_SSL, "
          + "kafka.sasl.mechanism=SCRAM-SHA-512, kafka.sasl.jaas.config=…, kafka.ssl.truststore.location=…) and "
          + "schema.registry.* (auth.username, auth.password, ssl.truststore.location, …); the ISOWATCH_KAFKA_* and "
          + "ISOWATCH_SCHEMA_REGISTRY_* environment variables apply too. --kafka and --registry win over the file.")
  private Path clientConfig;

  @Override
  public Integer call() throws InterruptedException {
    final PrintWriter err = spec.commandLine().getErr();
    if (out == null && !check && kafka == null) {
      throw usage("nothing would be recorded: give --out FILE (- for stdout), --kafka BOOTSTRAP or --check");
    }
    final KafkaClient client = kafka == null ? null : kafkaClient();
    final long seedValue = seed != null ? seed : ThreadLocalRandom.current().nextLong();
    final AgentConfig config;
    final WorkloadConfig workload;
    final Target t;
    try {
      final IsolationMix level = IsolationMix.parse(isolation);
      final boolean faulty = target.trim().toLowerCase(Locale.ROOT).startsWith("faulty");
      final ShapeMix mix = ShapeMix.parse(shapes != null ? shapes : faulty ? "full" : "paper");
      workload = new WorkloadConfig(new KeySpace(keys), KeyDistribution.parse(dist), mix,
          readOnlyRatio, seedValue, listAppend());
      final Long snapshotTxns = snapshotEvery != null && snapshotEvery.trim().matches("\\d+")
          ? Long.valueOf(snapshotEvery.trim()) : null;
      final Duration snapshotTime = snapshotEvery != null && snapshotTxns == null ? Durations.parse(snapshotEvery) : null;
      final Duration progressEvery = Durations.parse(progress);
      config = new AgentConfig(sessions, txns, duration == null ? null : Durations.parse(duration), rate, workload,
          snapshotTxns, snapshotTime, retries, progressEvery.isZero() ? null : progressEvery, tenant,
          reconnectAfterAbort);
      RateLimiter.of(rate);
      t = Targets.create(target, level, table, Durations.parse(lockTimeout), seedValue);
    } catch (final IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
    if (workload.lists() && !t.supportsLists()) {
      t.close();
      throw usage("--workload list-append needs a JDBC target (jdbc:postgresql:, jdbc:mariadb:, jdbc:h2: or h2), got "
          + target);
    }
    try (Target closing = t) {
      return run(config, closing, seedValue, client, err);
    }
  }

  /** The list-append workload, or null for mini-transactions; refuses options of the other workload. */
  private ListAppend listAppend() {
    switch (workloadName.trim().toLowerCase(Locale.ROOT)) {
      case "mini-transactions":
        if (opsPerTxn != null) {
          throw new IllegalArgumentException("--ops-per-txn applies to --workload list-append");
        }
        return null;
      case "list-append":
        if (shapes != null) {
          throw new IllegalArgumentException("--shapes applies to --workload mini-transactions; list-append draws "
              + "reads and appends (--ops-per-txn)");
        }
        return opsPerTxn == null ? ListAppend.defaults() : new ListAppend(opsPerTxn);
      default:
        throw new IllegalArgumentException("unknown --workload '" + workloadName
            + "' (expected mini-transactions or list-append)");
    }
  }

  /** The Kafka sink's settings: broker, registry and the clients' security. */
  record KafkaClient(String bootstrap, AvroSerdeConfig serde, Map<String, Object> producerProperties) {}

  KafkaClient kafkaClient() {
    if (registry == null) {
      throw usage("--kafka needs --registry URL (the schema registry)");
    }
    if (tenant == null || tenant.isBlank()) {
      throw usage("--kafka needs --tenant T (the record key)");
    }
    try {
      new URI(registry.trim());
    } catch (final URISyntaxException e) {
      throw usage("invalid --registry " + registry + ": " + e.getMessage());
    }
    final KafkaClientConfig settings;
    try {
      settings = KafkaClientConfig.load(Optional.ofNullable(clientConfig), System.getenv(), Map.of(
          KafkaClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.trim(),
          KafkaClientConfig.SCHEMA_REGISTRY_URL_CONFIG, registry.trim(),
          KafkaClientConfig.SCHEMAS_AUTO_REGISTER_CONFIG, Boolean.toString(dev)));
      return new KafkaClient(kafka.trim(), settings.avroSerdeConfig(), settings.clientProperties("producer."));
    } catch (final IOException e) {
      throw usage("cannot read --client-config " + clientConfig + ": " + e.getMessage());
    } catch (final ConfigException | IllegalArgumentException e) {
      throw usage("invalid client settings: " + e.getMessage());
    }
  }

  private int run(final AgentConfig config, final Target t, final long seedValue, final KafkaClient client,
      final PrintWriter err) throws InterruptedException {
    final boolean historyOnStdout = "-".equals(out);
    final PrintWriter report = historyOnStdout ? err : spec.commandLine().getOut();
    final CollectingSink memory = check ? new CollectingSink() : null;
    final TransactionSink sink;
    try {
      sink = sink(memory, client);
    } catch (final IOException e) {
      err.println("isowatch agent: cannot write " + out + ": " + e.getMessage());
      err.flush();
      return 1;
    } catch (final SinkException e) {
      err.println("isowatch agent: " + e.getMessage());
      err.flush();
      return 1;
    }
    final AgentRun agentRun = new AgentRun(config, t, sink, MicroClock.system(), err);
    final CountDownLatch done = new CountDownLatch(1);
    final Thread hook = new Thread(() -> {
      // Ctrl-C: stop the sessions, then let the main thread flush the history and print the summary.
      agentRun.stop();
      try {
        done.await(30, TimeUnit.SECONDS);
      } catch (final InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "isowatch-agent-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      err.println("isowatch agent: target " + t.describe() + ", " + t.isolationMix().label() + "; " + config.sessions()
          + " sessions, " + config.workload().keys().size() + " keys, " + config.workload().distribution().spec()
          + SummaryText.describeWorkload(config.workload()) + ", seed " + seedValue);
      err.flush();
      RunSummary summary;
      try {
        summary = agentRun.run();
      } catch (final TargetException e) {
        closeQuietly(sink, err);
        err.println("isowatch agent: cannot prepare the target: " + e.getMessage());
        err.flush();
        return 1;
      }
      String sinkFailure = null;
      try {
        sink.close();
      } catch (final SinkException e) {
        sinkFailure = e.getMessage();
      }
      final SummaryText text = new SummaryText(config, seedValue);
      text.summary(summary, sink.stats(), report);
      if (t instanceof FaultyTarget f) {
        text.injections(f.injections(), report);
      }
      if (memory != null) {
        // The engine isowatch check and the topology run, so the summary and they agree on a history.
        final CheckResult result = OnlineChecker.check(memory.history(), checkOptions(t.isolationMix()));
        text.check(result, t instanceof FaultyTarget f ? f.injections() : null, report);
      }
      report.flush();
      if (sinkFailure != null) {
        err.println("isowatch agent: " + sinkFailure);
      }
      if (summary.failure() != null) {
        err.println("isowatch agent: run failed: " + summary.failure());
      }
      err.flush();
      return summary.succeeded() && sinkFailure == null ? 0 : 1;
    } finally {
      done.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (final IllegalStateException e) {
        // The JVM is already shutting down (Ctrl-C): the hook is running and will see `done`.
      }
    }
  }

  private TransactionSink sink(final CollectingSink memory, final KafkaClient client)
      throws IOException, SinkException, InterruptedException {
    final List<TransactionSink> sinks = new ArrayList<>(3);
    if (client != null) {
      // First, so that an unreachable broker fails the run before a file is truncated.
      sinks.add(KafkaTransactionSink.create(client.bootstrap(), client.serde(), tenant, client.producerProperties()));
    }
    if (out != null) {
      try {
        sinks.add("-".equals(out) ? JsonlFileSink.toStdout() : JsonlFileSink.toFile(Path.of(out)));
      } catch (final IOException e) {
        for (final TransactionSink s : sinks) {
          s.close();
        }
        throw e;
      }
    }
    if (memory != null) {
      sinks.add(memory);
    }
    return sinks.size() == 1 ? sinks.get(0) : new TeeSink(sinks);
  }

  private static void closeQuietly(final TransactionSink sink, final PrintWriter err) {
    try {
      sink.close();
    } catch (final SinkException e) {
      err.println("isowatch agent: " + e.getMessage());
    }
  }

  private ParameterException usage(final String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /**
   * What {@code --check} decides: the default levels, and MIXED (each transaction at the level it
   * ran at, docs/levels.md "Mixed levels") when the run mixes levels each of which IsoWatch can
   * mix; a mix holding an ambiguous level (repeatable-read) leaves MIXED out rather than report
   * every transaction as INVALID_LEVEL.
   */
  static CheckOptions checkOptions(final IsolationMix mix) {
    final CheckOptions defaults = CheckOptions.defaults().withMaxAnomalies(CHECK_MAX_ANOMALIES);
    if (mix.single()) {
      return defaults;
    }
    for (final IsolationMix.Share s : mix.shares()) {
      try {
        DeclaredLevels.parse(s.level().label());
      } catch (final IllegalArgumentException ambiguous) {
        return defaults;
      }
    }
    final java.util.EnumSet<Level> levels = java.util.EnumSet.copyOf(defaults.levels());
    levels.add(Level.MIXED);
    return defaults.withLevels(levels);
  }
}
