package io.isowatch.streams;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.DeclaredLevels;
import io.isowatch.core.check.Level;
import io.isowatch.core.online.Horizon;
import io.isowatch.core.online.OnlineOptions;
import io.isowatch.schemas.avro.LevelRecords;
import io.isowatch.schemas.config.KafkaClientConfig;
import io.isowatch.schemas.topic.TopicSpec;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.fault.QuarantineRequests;
import io.isowatch.streams.fault.QuarantiningProcessingExceptionHandler;
import io.isowatch.streams.fault.QuarantiningProductionExceptionHandler;
import io.isowatch.streams.http.HttpLimits;
import io.isowatch.streams.processor.ReplayEnd;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The streaming checker's configuration ({@code isowatch run}). Every key is declared here with its
 * type, default and documentation; docs/config-reference.md is generated from {@link #CONFIG_DEF}.
 *
 * <p>Sources, lowest precedence first: the defaults below, a properties file ({@code --config}),
 * environment variables ({@code ISOWATCH_} + the key in upper case with dots as underscores, e.g.
 * {@code ISOWATCH_BOOTSTRAP_SERVERS}), command-line flags ({@code --dev}). {@link ConfigSources}
 * merges them.
 *
 * <p>Every key starting with {@value #KAFKA_PREFIX} goes, without the prefix, to Kafka Streams and
 * through it to its clients: {@code kafka.security.protocol=SASL_SSL}, {@code
 * kafka.sasl.mechanism=SCRAM-SHA-512}, {@code kafka.sasl.jaas.config=...}, {@code
 * kafka.ssl.truststore.location=...}, {@code kafka.num.stream.threads=2}, {@code
 * kafka.producer.compression.type=zstd}. So security needs no code.
 */
public final class IsoWatchStreamsConfig extends KafkaClientConfig {
  public static final String APPLICATION_ID_CONFIG = "application.id";
  public static final String APPLICATION_ID_DOC =
      "Kafka Streams application id: the consumer group, the prefix of the changelog topics and the"
          + " state sub-directory. Changing it starts the checker from scratch.";
  public static final String APPLICATION_ID_DEFAULT = "isowatch-checker";

  public static final String STATE_DIR_CONFIG = "state.dir";
  public static final String STATE_DIR_DOC =
      "Directory of the RocksDB stores (relative paths are relative to the working directory). Losing"
          + " it costs a restore from the changelog topics, never data.";
  public static final String STATE_DIR_DEFAULT = ".isowatch/state";

  public static final String PROCESSING_GUARANTEE_CONFIG = "processing.guarantee";
  public static final String PROCESSING_GUARANTEE_DOC =
      "exactly_once_v2: each input transaction changes the stores and publishes its anomalies exactly"
          + " once, even across crashes (needs brokers 2.5+). at_least_once: duplicates of anomalies are"
          + " possible after a crash (consumers can drop them by uniqueId).";
  public static final String PROCESSING_GUARANTEE_DEFAULT = StreamsConfig.EXACTLY_ONCE_V2;

  public static final String TOPICS_CREATE_CONFIG = "topics.create";
  public static final String TOPICS_CREATE_DOC =
      "Whether to create IsoWatch's topics (io.isowatch.schemas.topic.Topics) at startup when missing. Existing"
          + " topics are compared with their specification and differences logged, never altered."
          + " --dev turns it on.";
  public static final boolean TOPICS_CREATE_DEFAULT = false;

  public static final String TOPICS_REPLICATION_CONFIG = "topics.replication";
  public static final String TOPICS_REPLICATION_DOC =
      "Replication factor of topics created at startup; -1 leaves it to the broker's"
          + " default.replication.factor.";
  public static final short TOPICS_REPLICATION_DEFAULT = TopicSpec.BROKER_DEFAULT_REPLICATION;

  public static final String TOPICS_TXN_EVENTS_NAME_CONFIG = "topics.txn-events.name";
  public static final String TOPICS_TXN_EVENTS_NAME_DOC =
      "Name of the input topic of transaction events. Change it only to read another topic of the same"
          + " contract (isowatch replay --topic sets it).";

  public static final String TOPICS_ANOMALIES_NAME_CONFIG = "topics.anomalies.name";
  public static final String TOPICS_ANOMALIES_NAME_DOC =
      "Name of the output topic of anomalies (isowatch replay --topic gives its run a topic of its own).";

  public static final String TOPICS_VERDICTS_NAME_CONFIG = "topics.verdicts.name";
  public static final String TOPICS_VERDICTS_NAME_DOC =
      "Name of the output topic of tenant verdicts (isowatch replay --topic gives its run a topic of its own).";

  public static final String TOPICS_DLQ_NAME_CONFIG = "topics.dlq.name";
  public static final String TOPICS_DLQ_NAME_DOC =
      "Name of the dead-letter topic (isowatch replay --topic gives its run a topic of its own).";

  public static final String REPLAY_END_OFFSETS_CONFIG = "replay.end.offsets";
  public static final String REPLAY_END_OFFSETS_DOC =
      "Set by isowatch replay, not by hand: for each input partition, the offset of its last record to"
          + " replay, as partition:offset,partition:offset. After processing that record the checker flushes"
          + " the tenants of that partition (stored as an input, as the idle flush) and publishes their"
          + " verdicts at once, so the end of a finite input is deterministic rather than a wall-clock guess."
          + " Empty: never.";
  public static final String REPLAY_END_OFFSETS_DEFAULT = "";

  public static final String CHECK_LEVELS_CONFIG = "check.levels";
  public static final String CHECK_LEVELS_DOC = "Isolation levels to decide, comma-separated, any of (weakest first)"
      + " PL2, RC, RA, CC, PC, SI, RR, SER, SSER, and MIXED: each transaction at the level it declares"
      + " (TransactionEvent.level, else check.default.level; docs/levels.md, 'Mixed levels'). The spellings of"
      + " isowatch check --levels are accepted too. A verdict is published for each; the weak ones (PL2 ... PC,"
      + " RR) need consumers of the topics that read the Avro Level of v4, MIXED one of Anomaly v6 / TenantVerdict"
      + " v5 (an older v4+ consumer reads it as OTHER; schemas/README.md, 'Weak levels', 'Mixed levels').";
  public static final String CHECK_LEVELS_DEFAULT = "SSER,SER,SI";

  public static final String CHECK_DEFAULT_LEVEL_CONFIG = "check.default.level";
  public static final String CHECK_DEFAULT_LEVEL_DOC = "With MIXED in check.levels: the level of a transaction that"
      + " declares none (RC, RA, CC, PC, SI or SER, spelt as isowatch check --default-level reads it). Empty: such a"
      + " transaction is an INVALID_LEVEL finding and MIXED stays UNKNOWN.";
  public static final String CHECK_DEFAULT_LEVEL_DEFAULT = "";

  public static final String CHECK_GRACE_MS_CONFIG = "check.grace.ms";
  public static final String CHECK_GRACE_MS_DOC =
      "Bounded lateness: transactions are processed in canonical order once the tenant's watermark"
          + " (largest end time seen minus grace) passes them. A transaction arriving later than this is"
          + " processed at once and reported late; size it from the agents' publish delay"
          + " (docs/streaming-design.md).";
  public static final long CHECK_GRACE_MS_DEFAULT = 5_000L;

  public static final String CHECK_ABSENCE_BOUND_MS_CONFIG = "check.absence.bound.ms";
  public static final String CHECK_ABSENCE_BOUND_MS_DOC =
      "The declared lateness bound of anomalies proved by the absence of a transaction (a ThinAirRead:"
          + " no transaction wrote the value read): one is published only once the canonical order has"
          + " passed its reader's end by more than this, so that a writer arriving up to this late still"
          + " resolves the read. A writer arriving later anyway retracts the published anomaly"
          + " (docs/streaming.md, 'No false positive from time'). -1: the same as check.grace.ms; a value"
          + " below check.grace.ms counts as check.grace.ms.";
  public static final long CHECK_ABSENCE_BOUND_MS_DEFAULT = -1L;

  public static final String CHECK_FUTURE_MS_CONFIG = "check.future.ms";
  public static final String CHECK_FUTURE_MS_DOC =
      "How far a transaction's time may lie ahead of its record's timestamp. Beyond this its client's"
          + " clock is not trusted: a FUTURE_EVENT_TIME finding; it does not move the tenant's watermark, it is"
          + " ordered by its record's timestamp (taken as its end) and its start counts as unknown, so no"
          + " real-time order leads to it (docs/streaming.md, 'No false positive from time'). -1: never.";
  public static final long CHECK_FUTURE_MS_DEFAULT = 3_600_000L;

  public static final String CHECK_FUTURE_ARRIVAL_CONFIG = "check.future.arrival";
  public static final String CHECK_FUTURE_ARRIVAL_DOC =
      "Whether check.future.ms also judges a transaction's time by its record's timestamp. Either way a"
          + " time more than check.future.ms ahead of every other session's latest time is a FUTURE_EVENT_TIME"
          + " finding, checked as ending at the latest trusted time with its start unknown, and does not move"
          + " the watermark (docs/streaming.md, 'No false positive from time'). false where the timestamps are"
          + " not the history's clock (replay --file sets it).";
  public static final boolean CHECK_FUTURE_ARRIVAL_DEFAULT = true;

  public static final String CHECK_IDLE_FLUSH_MS_CONFIG = "check.idle.flush.ms";
  public static final String CHECK_IDLE_FLUSH_MS_DOC =
      "Stream time (record timestamps) without a new transaction of a tenant after which its buffered"
          + " transactions are flushed: released in canonical order, and reads still waiting for a writer"
          + " reported as ThinAirRead, as at the end of 'isowatch check'. For replays of finite topics and"
          + " clients that stop. A transaction of that tenant arriving later is processed as late. -1: never.";
  public static final long CHECK_IDLE_FLUSH_MS_DEFAULT = -1L;

  public static final String CHECK_HORIZON_TRANSACTIONS_CONFIG = "check.horizon.transactions";
  public static final String CHECK_HORIZON_TRANSACTIONS_DOC =
      "Segmentation (docs/segmentation.md): each tenant's engine retains only its last N processed"
          + " transactions and a bounded summary of the rest; reads older than the horizon become"
          + " STALE_READ_BEYOND_HORIZON findings. Same meaning as 'isowatch check --horizon-txns'. The default"
          + " bounds each tenant's heap (about 80 MiB at the peak of a cut), state and rebuild time; a SATISFIED"
          + " verdict then means no violation within the horizon (a HORIZON_PRUNED finding says so once"
          + " something was pruned). -1: no limit, exact like 'isowatch check', but heap, stores and the rebuild"
          + " after a restart grow with the tenant's history.";
  /**
   * Bounded by default (issue 10): at about 1.3 KB of heap per retained transaction and up to three
   * horizons held during a cut, 20,000 takes about 80 MiB per tenant, so docker-compose's 768 MiB
   * holds its demo tenants with room to spare (docs/benchmarks.md).
   */
  public static final long CHECK_HORIZON_TRANSACTIONS_DEFAULT = 20_000L;

  public static final String CHECK_HORIZON_MS_CONFIG = "check.horizon.ms";
  public static final String CHECK_HORIZON_MS_DOC =
      "Segmentation: each tenant's engine retains only the transactions whose end is within this many"
          + " milliseconds of its latest processed end time; with check.horizon.transactions both bounds"
          + " apply. Same meaning as 'isowatch check --horizon'. -1: no limit.";
  public static final long CHECK_HORIZON_MS_DEFAULT = -1L;

  public static final String CHECK_RETIRED_FILTER_MAX_BYTES_CONFIG = "check.retired.filter.max.bytes";
  public static final String CHECK_RETIRED_FILTER_MAX_BYTES_DOC =
      "Segmentation: the cap of each of a tenant's two filters of retired versions (docs/segmentation.md,"
          + " 'Retired versions'), bytes. They grow by about 3 bytes per retired version (one per transaction that"
          + " overwrites a key) and are part of the heap and of every checkpoint; past the cap their false-positive"
          + " probability (isowatch_retired_false_positive_ratio) rises above 0.001, a RETIRED_FILTER_SATURATED"
          + " finding and the IsoWatchRetiredFilterSaturated alert say so, and a thin-air read may then be reported"
          + " as an undecided stale read more often. Rounded down to a power of two of at least 1 MiB.";
  /**
   * 32 MiB per filter: the two filters add at most 64 MiB to a tenant's heap and checkpoint, and hold
   * about 10^7 retired versions each within the bound (about 20-25 minutes at 10K overwriting
   * transactions per second; docs/segmentation.md says how to size it).
   */
  public static final long CHECK_RETIRED_FILTER_MAX_BYTES_DEFAULT = 32L << 20;

  public static final String CHECK_RETIRED_RUNS_MAX_BYTES_CONFIG = "check.retired.runs.max.bytes";
  public static final String CHECK_RETIRED_RUNS_MAX_BYTES_DOC =
      "Segmentation: the cap of each of a tenant's two exact run-sets of retired versions (docs/segmentation.md,"
          + " 'Retired versions'), bytes, 16 per run. Retired versions are held exactly as runs of consecutive"
          + " values per key: about one run per key and writing session for IsoWatch's agent and generator, so"
          + " flat however long the run; one run per version for arbitrary values. A version that fits no run"
          + " past the cap goes to the filters (check.retired.filter.max.bytes), whose answers are only probable."
          + " 0 keeps no runs (filters only, as before). Watch isowatch_retired_runs.";
  /**
   * The engine's default, 64 MiB per run-set: 4 x 2^20 runs, a run per key and session for 2 x 10^5
   * keys and 20 sessions, or 4 x 10^6 arbitrary values held exactly before the filters take over.
   * Runs take memory only as they are made.
   */
  public static final long CHECK_RETIRED_RUNS_MAX_BYTES_DEFAULT = Horizon.DEFAULT_MAX_RUN_BYTES;

  public static final String CHECK_HORIZON_CUT_FACTOR_CONFIG = "check.horizon.cut.factor";
  public static final String CHECK_HORIZON_CUT_FACTOR_DOC =
      "Segmentation: a tenant's engine also cuts by itself when it retains this many horizons. A cut"
          + " replays the retained horizon, so self-cuts cost about 1/(factor-1) extra processing of every"
          + " transaction, for up to factor horizons in memory: 2 doubles the engine's work at most, 4 adds"
          + " a third for twice the memory. What is checked does not depend on it. Same meaning as"
          + " 'isowatch check --horizon-cut-factor'.";
  public static final double CHECK_HORIZON_CUT_FACTOR_DEFAULT = Horizon.DEFAULT_CUT_FACTOR;

  public static final String CHECK_PRUNE_INTERVAL_MS_CONFIG = "check.prune.interval.ms";
  public static final String CHECK_PRUNE_INTERVAL_MS_DOC =
      "Stream time between two prunes of every loaded tenant engine, when a horizon is set (an engine"
          + " also prunes by itself when it holds check.horizon.cut.factor horizons). Each prune is timed in"
          + " isowatch_prune_seconds.";
  public static final long CHECK_PRUNE_INTERVAL_MS_DEFAULT = 60_000L;

  public static final String CHECK_CHECKPOINT_EVERY_INPUTS_CONFIG = "check.checkpoint.every.inputs";
  public static final String CHECK_CHECKPOINT_EVERY_INPUTS_DOC =
      "Inputs of a tenant after which it is pruned and checkpointed at once, whatever"
          + " check.prune.interval.ms (when a horizon is set): a restart, restore or rebalance rebuilds a tenant"
          + " from its latest checkpoint plus at most this many stored inputs, so this bounds the rebuild time"
          + " (200,000 replay in seconds, docs/benchmarks.md); lower costs a checkpoint more often.";
  public static final long CHECK_CHECKPOINT_EVERY_INPUTS_DEFAULT =
      io.isowatch.streams.processor.CheckTransactionsProcessor.CHECKPOINT_EVERY_INPUTS;

  public static final String CHECK_RT_SKEW_US_CONFIG = "check.rt.skew.us";
  public static final String CHECK_RT_SKEW_US_DOC =
      "Clock-skew tolerance for real-time order (SSER), microseconds: T1 precedes T2 only if"
          + " T1.end + skew < T2.start. Same meaning as 'isowatch check --rt-skew-us'.";
  public static final long CHECK_RT_SKEW_US_DEFAULT = 0L;

  public static final String CHECK_INITIAL_VALUE_CONFIG = "check.initial.value";
  public static final String CHECK_INITIAL_VALUE_DOC =
      "Value every key holds before the history, or 'null' when keys start absent. Same meaning as"
          + " 'isowatch check --initial-value'.";
  public static final String CHECK_INITIAL_VALUE_DEFAULT = "0";

  public static final String CHECK_MAX_ANOMALIES_CONFIG = "check.max.anomalies";
  public static final String CHECK_MAX_ANOMALIES_DOC =
      "Anomalies per tenant kept listed in the tenant's result (the reasons of its verdicts); counts stay"
          + " exact and every anomaly is still published on isowatch.anomalies.v1.";
  public static final int CHECK_MAX_ANOMALIES_DEFAULT = CheckOptions.DEFAULT_MAX_ANOMALIES;

  public static final String CHECK_SOLVER_BUDGET_MS_CONFIG = "check.solver.budget.ms";
  public static final String CHECK_SOLVER_BUDGET_MS_DOC =
      "Time the search of version orders left open by blind writes may take per level (SSER, SER, SI) each time a"
          + " tenant's verdict is published after its transactions changed; past it the level stays UNKNOWN and"
          + " its reason says so; 0 turns the search off. Not run once a cut has pruned transactions. Same meaning"
          + " as 'isowatch check --solver-budget', whose default is 10 s; shorter here, as it runs on the stream"
          + " thread. It also bounds MIXED's search of the order of lost updates' branches (docs/levels.md).";
  public static final long CHECK_SOLVER_BUDGET_MS_DEFAULT = 1_000L;

  public static final String TENANT_PROMISED_LEVELS_CONFIG = "tenant.promised.levels";
  public static final String TENANT_PROMISED_LEVELS_DOC =
      "The isolation levels each tenant is promised, for alerting: comma-separated TENANT:LEVEL entries,"
          + " one per promised level; *:LEVEL applies to every tenant without entries of its own, TENANT:NONE"
          + " promises that tenant nothing (e.g. *:SER,*:SI,canary-rc:NONE). Any level may be listed; one the"
          + " checker does not decide (check.levels) is exported as unchecked. Exported as"
          + " isowatch_promised_level{tenant,level}; the paging alert of ops/prometheus/alerts.yml fires when a"
          + " new anomaly violates a promised level. Empty: nothing is promised and no anomaly pages."
          + " A database's named level is easier to give as tenant.promises.";
  public static final String TENANT_PROMISED_LEVELS_DEFAULT = "";

  public static final String TENANT_PROMISES_CONFIG = "tenant.promises";
  public static final String TENANT_PROMISES_DOC =
      "What each tenant's database promises, as a database profile: comma-separated TENANT=DATABASE:LEVEL"
          + " entries (e.g. pg-rc=postgres:read-committed,mariadb=mariadb:repeatable-read,*=postgres:serializable),"
          + " mapped to IsoWatch levels by the profile table of docs/levels.md (\"Database profiles\"): the tenant is"
          + " promised the profile's levels and every level they imply, exported and alerted on as"
          + " tenant.promised.levels; an anomaly violating none of them is 'weaker than X but allowed'. A tenant (or"
          + " *) may have entries here or in tenant.promised.levels, not both.";
  public static final String TENANT_PROMISES_DEFAULT = "";

  public static final String VERDICT_INTERVAL_MS_CONFIG = "verdict.interval.ms";
  public static final String VERDICT_INTERVAL_MS_DOC =
      "Wall-clock interval of the verdict punctuator: every interval, each tenant whose state changed"
          + " gets a new TenantVerdict on isowatch.verdicts.v1.";
  public static final long VERDICT_INTERVAL_MS_DEFAULT = 10_000L;

  public static final String HTTP_PORT_CONFIG = "http.port";
  public static final String HTTP_PORT_DOC =
      "Port of the HTTP endpoint serving /metrics (Prometheus text format) and /health; 0 picks a free"
          + " port, -1 disables the endpoint.";
  public static final int HTTP_PORT_DEFAULT = 9464;

  public static final String HTTP_HOST_CONFIG = "http.host";
  public static final String HTTP_HOST_DOC =
      "Address the HTTP endpoint binds to. The default, loopback, serves this machine only; any other"
          + " address (0.0.0.0 in a container, for Prometheus to scrape) needs http.auth.token, or"
          + " http.allow.unauthenticated=true, or the checker refuses to start.";
  public static final String HTTP_HOST_DEFAULT = "127.0.0.1";

  public static final String HTTP_AUTH_TOKEN_CONFIG = "http.auth.token";
  public static final String HTTP_AUTH_TOKEN_DOC =
      "Bearer token guarding the web UI, its REST API (/api/...) and /metrics: when set, requests without"
          + " 'Authorization: Bearer <token>' (or the UI's session cookie, obtained once by opening"
          + " /?token=<token>) get 401. /health stays open for probes. Unset: no authentication. Never"
          + " logged; prefer the environment variable to a file.";

  public static final String HTTP_ALLOW_UNAUTHENTICATED_CONFIG = "http.allow.unauthenticated";
  public static final String HTTP_ALLOW_UNAUTHENTICATED_DOC =
      "Whether the HTTP endpoint may bind a non-loopback http.host without http.auth.token. Off: such a"
          + " configuration is refused at startup (exit 2), since the web UI and /metrics name tenants, keys"
          + " and values of the checked databases. Turn it on only where the network itself restricts who"
          + " can connect.";
  public static final boolean HTTP_ALLOW_UNAUTHENTICATED_DEFAULT = false;

  public static final String HTTP_COOKIE_SECURE_CONFIG = "http.cookie.secure";
  public static final String HTTP_COOKIE_SECURE_DOC =
      "Whether the UI's session cookie is always marked Secure (sent by browsers over https only). The"
          + " endpoint speaks plain HTTP: set this when users reach it through a TLS-terminating proxy. The"
          + " cookie is also Secure, whatever this says, on requests whose proxy sends X-Forwarded-Proto: https"
          + " or Forwarded: proto=https. It is always HttpOnly and SameSite=Strict.";
  public static final boolean HTTP_COOKIE_SECURE_DEFAULT = false;

  public static final String HTTP_REQUEST_TIMEOUT_MS_CONFIG = "http.request.timeout.ms";
  public static final String HTTP_REQUEST_TIMEOUT_MS_DOC =
      "Time a client has, from connecting, to send its whole request; a slower one is answered 408 and"
          + " disconnected. Requests are read without holding a thread, and /health has threads of its own,"
          + " so slow clients cannot starve the probes.";
  public static final long HTTP_REQUEST_TIMEOUT_MS_DEFAULT = HttpLimits.DEFAULTS.requestTimeout().toMillis();

  public static final String HTTP_RESPONSE_TIMEOUT_MS_CONFIG = "http.response.timeout.ms";
  public static final String HTTP_RESPONSE_TIMEOUT_MS_DOC =
      "Time an answer has to be delivered once its request is complete; past it the connection is closed,"
          + " so a client that never reads its answer holds a worker no longer.";
  public static final long HTTP_RESPONSE_TIMEOUT_MS_DEFAULT = HttpLimits.DEFAULTS.responseTimeout().toMillis();

  public static final String HTTP_MAX_CONNECTIONS_CONFIG = "http.max.connections";
  public static final String HTTP_MAX_CONNECTIONS_DOC =
      "Connections that may be sending their request at once; each new connection beyond evicts the oldest"
          + " of them, so a flood of slow clients cannot lock a probe out.";
  public static final int HTTP_MAX_CONNECTIONS_DEFAULT = HttpLimits.DEFAULTS.maxConnections();

  public static final String UI_MAX_ANOMALIES_CONFIG = "ui.max.anomalies";
  public static final String UI_MAX_ANOMALIES_DOC =
      "Anomalies the web UI keeps in memory for its feed and detail pages (the most recent ones, across"
          + " tenants); older ones remain on isowatch.anomalies.v1.";
  public static final int UI_MAX_ANOMALIES_DEFAULT = 1_000;

  public static final String UI_ENABLED_CONFIG = "ui.enabled";
  public static final String UI_ENABLED_DOC =
      "Whether the HTTP endpoint also serves the read-only web UI (/) and its REST API (/api/...), fed by"
          + " a read_committed consumer of isowatch.anomalies.v1 and isowatch.verdicts.v1.";
  public static final boolean UI_ENABLED_DEFAULT = true;

  public static final String SHUTDOWN_TIMEOUT_MS_CONFIG = "shutdown.timeout.ms";
  public static final String SHUTDOWN_TIMEOUT_MS_DOC =
      "How long a shutdown (SIGTERM, Ctrl-C) waits for Kafka Streams to commit and close.";
  public static final long SHUTDOWN_TIMEOUT_MS_DEFAULT = 30_000L;

  /** The declared keys; docs/config-reference.md is generated from it. */
  public static final ConfigDef CONFIG_DEF = defineConnection(new ConfigDef())
      .define(APPLICATION_ID_CONFIG, Type.STRING, APPLICATION_ID_DEFAULT,
          new ConfigDef.NonEmptyString(), Importance.HIGH, APPLICATION_ID_DOC)
      .define(STATE_DIR_CONFIG, Type.STRING, STATE_DIR_DEFAULT,
          new ConfigDef.NonEmptyString(), Importance.HIGH, STATE_DIR_DOC)
      .define(PROCESSING_GUARANTEE_CONFIG, Type.STRING, PROCESSING_GUARANTEE_DEFAULT,
          ConfigDef.ValidString.in(StreamsConfig.EXACTLY_ONCE_V2, StreamsConfig.AT_LEAST_ONCE),
          Importance.MEDIUM, PROCESSING_GUARANTEE_DOC)
      .define(SCHEMAS_AUTO_REGISTER_CONFIG, Type.BOOLEAN, SCHEMAS_AUTO_REGISTER_DEFAULT,
          Importance.MEDIUM, SCHEMAS_AUTO_REGISTER_DOC)
      .define(TOPICS_CREATE_CONFIG, Type.BOOLEAN, TOPICS_CREATE_DEFAULT, Importance.MEDIUM, TOPICS_CREATE_DOC)
      .define(TOPICS_REPLICATION_CONFIG, Type.SHORT, TOPICS_REPLICATION_DEFAULT,
          Importance.LOW, TOPICS_REPLICATION_DOC)
      .define(TOPICS_TXN_EVENTS_NAME_CONFIG, Type.STRING, Topics.defaults().txnEvents().name(),
          new ConfigDef.NonEmptyString(), Importance.LOW, TOPICS_TXN_EVENTS_NAME_DOC)
      .define(TOPICS_ANOMALIES_NAME_CONFIG, Type.STRING, Topics.defaults().anomalies().name(),
          new ConfigDef.NonEmptyString(), Importance.LOW, TOPICS_ANOMALIES_NAME_DOC)
      .define(TOPICS_VERDICTS_NAME_CONFIG, Type.STRING, Topics.defaults().verdicts().name(),
          new ConfigDef.NonEmptyString(), Importance.LOW, TOPICS_VERDICTS_NAME_DOC)
      .define(TOPICS_DLQ_NAME_CONFIG, Type.STRING, Topics.defaults().deadLetters().name(),
          new ConfigDef.NonEmptyString(), Importance.LOW, TOPICS_DLQ_NAME_DOC)
      .define(REPLAY_END_OFFSETS_CONFIG, Type.STRING, REPLAY_END_OFFSETS_DEFAULT,
          parsedBy(v -> ReplayEnd.parse(v == null ? "" : v.toString()),
              "partition:offset[,partition:offset...], or empty"), Importance.LOW, REPLAY_END_OFFSETS_DOC)
      .define(CHECK_LEVELS_CONFIG, Type.LIST, CHECK_LEVELS_DEFAULT,
          parsedBy(IsoWatchStreamsConfig::parseLevels, "levels such as RC,RA,SI,SER"), Importance.HIGH, CHECK_LEVELS_DOC)
      .define(CHECK_DEFAULT_LEVEL_CONFIG, Type.STRING, CHECK_DEFAULT_LEVEL_DEFAULT,
          parsedBy(IsoWatchStreamsConfig::parseDefaultLevel, "empty, or one of RC, RA, CC, PC, SI, SER"),
          Importance.MEDIUM, CHECK_DEFAULT_LEVEL_DOC)
      .define(CHECK_GRACE_MS_CONFIG, Type.LONG, CHECK_GRACE_MS_DEFAULT, ConfigDef.Range.atLeast(0),
          Importance.HIGH, CHECK_GRACE_MS_DOC)
      .define(CHECK_ABSENCE_BOUND_MS_CONFIG, Type.LONG, CHECK_ABSENCE_BOUND_MS_DEFAULT, ConfigDef.Range.atLeast(-1),
          Importance.MEDIUM, CHECK_ABSENCE_BOUND_MS_DOC)
      .define(CHECK_FUTURE_MS_CONFIG, Type.LONG, CHECK_FUTURE_MS_DEFAULT, ConfigDef.Range.atLeast(-1),
          Importance.MEDIUM, CHECK_FUTURE_MS_DOC)
      .define(CHECK_FUTURE_ARRIVAL_CONFIG, Type.BOOLEAN, CHECK_FUTURE_ARRIVAL_DEFAULT, Importance.LOW,
          CHECK_FUTURE_ARRIVAL_DOC)
      .define(CHECK_IDLE_FLUSH_MS_CONFIG, Type.LONG, CHECK_IDLE_FLUSH_MS_DEFAULT, ConfigDef.Range.atLeast(-1),
          Importance.MEDIUM, CHECK_IDLE_FLUSH_MS_DOC)
      .define(CHECK_HORIZON_TRANSACTIONS_CONFIG, Type.LONG, CHECK_HORIZON_TRANSACTIONS_DEFAULT,
          new NoLimitOrPositive(), Importance.MEDIUM, CHECK_HORIZON_TRANSACTIONS_DOC)
      .define(CHECK_HORIZON_MS_CONFIG, Type.LONG, CHECK_HORIZON_MS_DEFAULT, new NoLimitOrPositive(),
          Importance.MEDIUM, CHECK_HORIZON_MS_DOC)
      .define(CHECK_RETIRED_FILTER_MAX_BYTES_CONFIG, Type.LONG, CHECK_RETIRED_FILTER_MAX_BYTES_DEFAULT,
          ConfigDef.Range.between(1L << 20, Horizon.MAX_FILTER_BITS / 8), Importance.LOW,
          CHECK_RETIRED_FILTER_MAX_BYTES_DOC)
      .define(CHECK_RETIRED_RUNS_MAX_BYTES_CONFIG, Type.LONG, CHECK_RETIRED_RUNS_MAX_BYTES_DEFAULT,
          ConfigDef.Range.between(0L, 1L << 34), Importance.LOW, CHECK_RETIRED_RUNS_MAX_BYTES_DOC)
      .define(CHECK_HORIZON_CUT_FACTOR_CONFIG, Type.DOUBLE, CHECK_HORIZON_CUT_FACTOR_DEFAULT,
          ConfigDef.Range.between(Horizon.MIN_CUT_FACTOR, Horizon.MAX_CUT_FACTOR), Importance.LOW,
          CHECK_HORIZON_CUT_FACTOR_DOC)
      .define(CHECK_PRUNE_INTERVAL_MS_CONFIG, Type.LONG, CHECK_PRUNE_INTERVAL_MS_DEFAULT, ConfigDef.Range.atLeast(1),
          Importance.LOW, CHECK_PRUNE_INTERVAL_MS_DOC)
      .define(CHECK_CHECKPOINT_EVERY_INPUTS_CONFIG, Type.LONG, CHECK_CHECKPOINT_EVERY_INPUTS_DEFAULT,
          ConfigDef.Range.atLeast(1), Importance.LOW, CHECK_CHECKPOINT_EVERY_INPUTS_DOC)
      .define(CHECK_RT_SKEW_US_CONFIG, Type.LONG, CHECK_RT_SKEW_US_DEFAULT, ConfigDef.Range.atLeast(0),
          Importance.MEDIUM, CHECK_RT_SKEW_US_DOC)
      .define(CHECK_INITIAL_VALUE_CONFIG, Type.STRING, CHECK_INITIAL_VALUE_DEFAULT,
          parsedBy(IsoWatchStreamsConfig::parseInitialValue,
              "an integer, or null"), Importance.LOW, CHECK_INITIAL_VALUE_DOC)
      .define(CHECK_MAX_ANOMALIES_CONFIG, Type.INT, CHECK_MAX_ANOMALIES_DEFAULT, ConfigDef.Range.atLeast(1),
          Importance.LOW, CHECK_MAX_ANOMALIES_DOC)
      .define(CHECK_SOLVER_BUDGET_MS_CONFIG, Type.LONG, CHECK_SOLVER_BUDGET_MS_DEFAULT, ConfigDef.Range.atLeast(0),
          Importance.LOW, CHECK_SOLVER_BUDGET_MS_DOC)
      .define(TENANT_PROMISED_LEVELS_CONFIG, Type.LIST, TENANT_PROMISED_LEVELS_DEFAULT,
          parsedBy(IsoWatchStreamsConfig::parsePromisedLevels,
              "TENANT:LEVEL entries (LEVEL: PL2, RC, RA, CC, PC, SI, RR, SER, SSER or NONE; TENANT * for the others)"),
          Importance.MEDIUM, TENANT_PROMISED_LEVELS_DOC)
      .define(TENANT_PROMISES_CONFIG, Type.LIST, TENANT_PROMISES_DEFAULT,
          parsedBy(IsoWatchStreamsConfig::parsePromises,
              "TENANT=DATABASE:LEVEL entries (DATABASE:LEVEL as in docs/levels.md, e.g. postgres:read-committed; TENANT * for the others)"),
          Importance.MEDIUM, TENANT_PROMISES_DOC)
      .define(VERDICT_INTERVAL_MS_CONFIG, Type.LONG, VERDICT_INTERVAL_MS_DEFAULT, ConfigDef.Range.atLeast(1),
          Importance.MEDIUM, VERDICT_INTERVAL_MS_DOC)
      .define(HTTP_PORT_CONFIG, Type.INT, HTTP_PORT_DEFAULT, ConfigDef.Range.between(-1, 65_535),
          Importance.MEDIUM, HTTP_PORT_DOC)
      .define(HTTP_HOST_CONFIG, Type.STRING, HTTP_HOST_DEFAULT, new ConfigDef.NonEmptyString(),
          Importance.LOW, HTTP_HOST_DOC)
      .define(HTTP_AUTH_TOKEN_CONFIG, Type.PASSWORD, null, Importance.MEDIUM, HTTP_AUTH_TOKEN_DOC)
      .define(HTTP_ALLOW_UNAUTHENTICATED_CONFIG, Type.BOOLEAN, HTTP_ALLOW_UNAUTHENTICATED_DEFAULT, Importance.MEDIUM,
          HTTP_ALLOW_UNAUTHENTICATED_DOC)
      .define(HTTP_COOKIE_SECURE_CONFIG, Type.BOOLEAN, HTTP_COOKIE_SECURE_DEFAULT, Importance.LOW,
          HTTP_COOKIE_SECURE_DOC)
      .define(HTTP_REQUEST_TIMEOUT_MS_CONFIG, Type.LONG, HTTP_REQUEST_TIMEOUT_MS_DEFAULT, ConfigDef.Range.atLeast(1),
          Importance.LOW, HTTP_REQUEST_TIMEOUT_MS_DOC)
      .define(HTTP_RESPONSE_TIMEOUT_MS_CONFIG, Type.LONG, HTTP_RESPONSE_TIMEOUT_MS_DEFAULT, ConfigDef.Range.atLeast(1),
          Importance.LOW, HTTP_RESPONSE_TIMEOUT_MS_DOC)
      .define(HTTP_MAX_CONNECTIONS_CONFIG, Type.INT, HTTP_MAX_CONNECTIONS_DEFAULT, ConfigDef.Range.atLeast(1),
          Importance.LOW, HTTP_MAX_CONNECTIONS_DOC)
      .define(UI_ENABLED_CONFIG, Type.BOOLEAN, UI_ENABLED_DEFAULT, Importance.LOW, UI_ENABLED_DOC)
      .define(UI_MAX_ANOMALIES_CONFIG, Type.INT, UI_MAX_ANOMALIES_DEFAULT, ConfigDef.Range.atLeast(1),
          Importance.LOW, UI_MAX_ANOMALIES_DOC)
      .define(SHUTDOWN_TIMEOUT_MS_CONFIG, Type.LONG, SHUTDOWN_TIMEOUT_MS_DEFAULT, ConfigDef.Range.atLeast(0),
          Importance.LOW, SHUTDOWN_TIMEOUT_MS_DOC);

  /**
   * @param originals the merged properties (see {@link ConfigSources}); unknown keys other than
   *     {@value #KAFKA_PREFIX}-prefixed ones are ignored
   * @throws ConfigException when a value has the wrong type or is out of range
   */
  // One per configuration, so per running checker: its exception handlers and processors share it.
  private final QuarantineRequests quarantineRequests = new QuarantineRequests();

  public IsoWatchStreamsConfig(final Map<?, ?> originals) {
    super(CONFIG_DEF, originals);
    // Each of the two promise settings is checked on its own by its validator; this checks them together.
    promisedLevels();
  }

  /** The properties for {@code new KafkaStreams(topology, props)}: IsoWatch's, then the passthrough. */
  /** The tenants the exception handlers name for quarantine, shared with the check processors. */
  public QuarantineRequests quarantineRequests() {
    return quarantineRequests;
  }

  public Properties streamsProperties() {
    final Properties p = new Properties();
    // No global stores here; enabling it only silences Kafka 4's start-up warning about it.
    p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, "true");
    // No record stops or crash-loops the checker (docs/streaming.md, "Failure handling"); the
    // source's byte[] deserializers cannot fail, Kafka's log-and-continue is the formal default.
    p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, QuarantiningProcessingExceptionHandler.class.getName());
    p.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, QuarantiningProductionExceptionHandler.class.getName());
    p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
        org.apache.kafka.streams.errors.LogAndContinueExceptionHandler.class.getName());
    p.put(QuarantineRequests.CONFIG_KEY, quarantineRequests);
    p.putAll(kafkaPassthrough());
    // IsoWatch's own keys win over a passthrough of the same name: one place sets each.
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, getString(APPLICATION_ID_CONFIG));
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, getString(BOOTSTRAP_SERVERS_CONFIG));
    p.put(StreamsConfig.STATE_DIR_CONFIG, getString(STATE_DIR_CONFIG));
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, getString(PROCESSING_GUARANTEE_CONFIG));
    // Read by the check processor from its context's app configs (ReplayEnd.from).
    if (!getString(REPLAY_END_OFFSETS_CONFIG).isBlank()) {
      p.put(REPLAY_END_OFFSETS_CONFIG, getString(REPLAY_END_OFFSETS_CONFIG));
    }
    return p;
  }

  /** The bearer token of the HTTP endpoint, when one is configured (never log it). */
  public java.util.Optional<String> httpAuthToken() {
    final org.apache.kafka.common.config.types.Password p = getPassword(HTTP_AUTH_TOKEN_CONFIG);
    return p == null || p.value().isBlank() ? java.util.Optional.empty() : java.util.Optional.of(p.value());
  }

  /** What one client may cost the HTTP endpoint. */
  public HttpLimits httpLimits() {
    return new HttpLimits(java.time.Duration.ofMillis(getLong(HTTP_REQUEST_TIMEOUT_MS_CONFIG)),
        java.time.Duration.ofMillis(getLong(HTTP_RESPONSE_TIMEOUT_MS_CONFIG)), getInt(HTTP_MAX_CONNECTIONS_CONFIG),
        HttpLimits.DEFAULTS.workers());
  }

  /**
   * Refuses an HTTP endpoint open to the network without a token (see {@link HttpExposure}).
   *
   * @throws ConfigException when http.host is not loopback, http.auth.token is unset and
   *     http.allow.unauthenticated is off
   */
  public void requireSafeHttpExposure() {
    HttpExposure.require(getInt(HTTP_PORT_CONFIG), getString(HTTP_HOST_CONFIG), httpAuthToken().isPresent(),
        getBoolean(HTTP_ALLOW_UNAUTHENTICATED_CONFIG));
  }

  /** The check options of every tenant. */
  public CheckOptions checkOptions() {
    return new CheckOptions(levels(), initialValue(), getLong(CHECK_RT_SKEW_US_CONFIG),
        getInt(CHECK_MAX_ANOMALIES_CONFIG), java.time.Duration.ofMillis(getLong(CHECK_SOLVER_BUDGET_MS_CONFIG)))
        .withDefaultLevel(defaultLevel());
  }

  /** The level of a transaction that declares none, under MIXED ({@code check.default.level}), or null. */
  public Level defaultLevel() {
    final String s = getString(CHECK_DEFAULT_LEVEL_CONFIG);
    return s == null || s.isBlank() ? null : DeclaredLevels.parse(s);
  }

  /** The levels to decide. */
  public Set<Level> levels() {
    final EnumSet<Level> levels = EnumSet.noneOf(Level.class);
    for (final String s : getList(CHECK_LEVELS_CONFIG)) {
      levels.add(Level.parse(s));
    }
    return levels;
  }

  /** Grace in microseconds, the unit of transaction times. */
  public long graceMicros() {
    return Math.multiplyExact(getLong(CHECK_GRACE_MS_CONFIG), 1_000L);
  }

  /**
   * Each tenant's engine options: grace, horizon, the absence bound ({@code check.absence.bound.ms},
   * the grace when -1) and the future bound ({@code check.future.ms}, none when -1; by arrival too
   * unless {@code check.future.arrival} is false).
   */
  public OnlineOptions onlineOptions() {
    final long absenceMs = getLong(CHECK_ABSENCE_BOUND_MS_CONFIG);
    final long futureMs = getLong(CHECK_FUTURE_MS_CONFIG);
    return OnlineOptions.streaming(graceMicros()).withHorizon(horizon())
        .withAbsence(absenceMs < 0 ? graceMicros() : Math.multiplyExact(absenceMs, 1_000L))
        .withFutureBound(futureMs < 0 ? OnlineOptions.UNBOUNDED : Math.multiplyExact(futureMs, 1_000L))
        .withFutureByArrival(getBoolean(CHECK_FUTURE_ARRIVAL_CONFIG));
  }

  /** What each tenant's engine retains (docs/segmentation.md). */
  public Horizon horizon() {
    Horizon h = Horizon.NONE;
    final long txns = getLong(CHECK_HORIZON_TRANSACTIONS_CONFIG);
    final long ms = getLong(CHECK_HORIZON_MS_CONFIG);
    if (txns > 0) {
      h = h.withTransactions(txns);
    }
    if (ms > 0) {
      h = h.withMicros(Math.multiplyExact(ms, 1_000L));
    }
    // A power of two of bits, at least the first stage's.
    final long maxBits = Math.max(Horizon.DEFAULT_FILTER_BITS,
        Long.highestOneBit(getLong(CHECK_RETIRED_FILTER_MAX_BYTES_CONFIG) * 8));
    return h.withCutFactor(getDouble(CHECK_HORIZON_CUT_FACTOR_CONFIG))
        .withFilters(Horizon.DEFAULT_FILTER_BITS, maxBits)
        .withMaxRunBytes(getLong(CHECK_RETIRED_RUNS_MAX_BYTES_CONFIG));
  }

  public long pruneIntervalMs() {
    return getLong(CHECK_PRUNE_INTERVAL_MS_CONFIG);
  }

  public long checkpointEveryInputs() {
    return getLong(CHECK_CHECKPOINT_EVERY_INPUTS_CONFIG);
  }

  public long verdictIntervalMs() {
    return getLong(VERDICT_INTERVAL_MS_CONFIG);
  }

  /** The levels promised to each tenant, for alerting. */
  public PromisedLevels promisedLevels() {
    try {
      return PromisedLevels.parse(getList(TENANT_PROMISED_LEVELS_CONFIG), getList(TENANT_PROMISES_CONFIG));
    } catch (final IllegalArgumentException e) {
      throw new ConfigException(TENANT_PROMISES_CONFIG, getList(TENANT_PROMISES_CONFIG), e.getMessage());
    }
  }

  /**
   * The whole configuration as one line for the startup log: every declared key and every
   * passthrough key, with secrets shown as {@code [hidden]} ({@link SecretKeys}).
   */
  public String describe() {
    final TreeMap<String, String> shown = new TreeMap<>();
    for (final Map.Entry<String, ?> e : values().entrySet()) {
      final Object v = e.getValue();
      shown.put(e.getKey(), v == null ? "null"
          : CONFIG_DEF.configKeys().get(e.getKey()).type == Type.PASSWORD ? SecretKeys.HIDDEN : String.valueOf(v));
    }
    kafkaPassthrough().forEach((k, v) ->
        shown.put(KAFKA_PREFIX + k, SecretKeys.isSecret(k) ? SecretKeys.HIDDEN : String.valueOf(v)));
    return shown.toString();
  }

  /** The topics to read and write, with the replication used when creating them. */
  public Topics topics() {
    final short replication = getShort(TOPICS_REPLICATION_CONFIG);
    final Topics named = Topics.defaults().withNames(getString(TOPICS_TXN_EVENTS_NAME_CONFIG),
        getString(TOPICS_ANOMALIES_NAME_CONFIG), getString(TOPICS_VERDICTS_NAME_CONFIG),
        getString(TOPICS_DLQ_NAME_CONFIG));
    return replication == TopicSpec.BROKER_DEFAULT_REPLICATION ? named : named.withReplication(replication);
  }

  private Long initialValue() {
    return parseInitialValue(getString(CHECK_INITIAL_VALUE_CONFIG));
  }

  /** -1 (no limit) or a positive number. */
  private static final class NoLimitOrPositive implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      final long v = value == null ? 0 : (Long) value;
      if (v != -1 && v < 1) {
        throw new ConfigException(name, value, "must be -1 (no limit) or positive");
      }
    }

    @Override
    public String toString() {
      return "-1, or at least 1";
    }
  }

  /**
   * A value {@code parse} accepts; the message of the {@link IllegalArgumentException} it throws
   * otherwise says why not. {@code validValues} is what the configuration reference shows.
   */
  private static ConfigDef.Validator parsedBy(final Consumer<Object> parse, final String validValues) {
    return ConfigDef.LambdaValidator.with((name, value) -> {
      try {
        parse.accept(value);
      } catch (final IllegalArgumentException | ClassCastException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }, () -> validValues);
  }

  @SuppressWarnings("unchecked") // A LIST key's parsed value is a List<String>.
  private static void parseLevels(final Object value) {
    final List<String> levels = value == null ? List.of() : (List<String>) value;
    if (levels.isEmpty()) {
      throw new IllegalArgumentException("no level to decide");
    }
    for (final String s : levels) {
      if (!LevelRecords.carried(Level.parse(s))) {
        // The topics' rule, held by LevelRecords: a level they cannot carry is refused here.
        throw new IllegalArgumentException(s + " is not carried by the topics");
      }
    }
  }

  private static void parseDefaultLevel(final Object value) {
    if (value != null && !((String) value).isBlank()) {
      DeclaredLevels.parse((String) value);
    }
  }

  @SuppressWarnings("unchecked") // A LIST key's parsed value is a List<String>.
  private static void parsePromisedLevels(final Object value) {
    PromisedLevels.parse(value == null ? List.of() : (List<String>) value);
  }

  @SuppressWarnings("unchecked")
  private static void parsePromises(final Object value) {
    PromisedLevels.parse(List.of(), value == null ? List.of() : (List<String>) value);
  }

  /** A long, or null for the word null (keys start absent). */
  private static Long parseInitialValue(final Object value) {
    final String v = value == null ? "" : value.toString().trim();
    if ("null".equalsIgnoreCase(v)) {
      return null;
    }
    try {
      return Long.valueOf(v);
    } catch (final NumberFormatException e) {
      throw new IllegalArgumentException("must be an integer or null", e);
    }
  }
}
