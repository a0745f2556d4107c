package io.isowatch.streams;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Level;
import io.isowatch.streams.serde.AvroSerdeConfig;
import java.net.URI;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
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
public final class IsoWatchStreamsConfig extends AbstractConfig {
  /** Prefix of the properties passed through to Kafka Streams and its clients. */
  public static final String KAFKA_PREFIX = "kafka.";

  /** Kafka Streams' prefixes of settings meant for one kind of client other than the admin client. */
  private static final List<String> OTHER_CLIENT_PREFIXES = List.of(
      "producer.", "consumer.", "main.consumer.", "restore.consumer.", "global.consumer.");

  /** Prefix of the environment variables read by {@link ConfigSources}. */
  public static final String ENV_PREFIX = "ISOWATCH_";

  public static final String BOOTSTRAP_SERVERS_CONFIG = "bootstrap.servers";
  public static final String BOOTSTRAP_SERVERS_DOC =
      "Kafka bootstrap servers, host:port[,host:port...]. The default is the broker of scripts/kafka.sh.";
  public static final String BOOTSTRAP_SERVERS_DEFAULT = "127.0.0.1:9092";

  public static final String SCHEMA_REGISTRY_URL_CONFIG = "schema.registry.url";
  public static final String SCHEMA_REGISTRY_URL_DOC =
      "Base URL of the Confluent-compatible schema registry (Apicurio 2.4), without a path. The default"
          + " is the registry of scripts/registry.sh.";
  public static final String SCHEMA_REGISTRY_URL_DEFAULT = "http://127.0.0.1:8081";

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
          + " possible after a crash (consumers can drop them by anomalyId).";
  public static final String PROCESSING_GUARANTEE_DEFAULT = StreamsConfig.EXACTLY_ONCE_V2;

  public static final String SCHEMAS_AUTO_REGISTER_CONFIG = "schemas.auto.register";
  public static final String SCHEMAS_AUTO_REGISTER_DOC =
      "Whether the checker registers its output schemas itself. Off in production, where the release"
          + " registers them and an unregistered schema must fail; --dev turns it on.";
  public static final boolean SCHEMAS_AUTO_REGISTER_DEFAULT = false;

  public static final String TOPICS_CREATE_CONFIG = "topics.create";
  public static final String TOPICS_CREATE_DOC =
      "Whether to create IsoWatch's topics (io.isowatch.streams.Topics) at startup when missing. Existing"
          + " topics are compared with their specification and differences logged, never altered."
          + " --dev turns it on.";
  public static final boolean TOPICS_CREATE_DEFAULT = false;

  public static final String TOPICS_REPLICATION_CONFIG = "topics.replication";
  public static final String TOPICS_REPLICATION_DOC =
      "Replication factor of topics created at startup; -1 leaves it to the broker's"
          + " default.replication.factor.";
  public static final short TOPICS_REPLICATION_DEFAULT = TopicSpec.BROKER_DEFAULT_REPLICATION;

  public static final String CHECK_LEVELS_CONFIG = "check.levels";
  public static final String CHECK_LEVELS_DOC = "Isolation levels to decide, comma-separated: SSER, SER, SI.";
  public static final String CHECK_LEVELS_DEFAULT = "SSER,SER,SI";

  public static final String CHECK_GRACE_MS_CONFIG = "check.grace.ms";
  public static final String CHECK_GRACE_MS_DOC =
      "Bounded lateness: transactions are processed in canonical order once the tenant's watermark"
          + " (largest end time seen minus grace) passes them. A transaction arriving later than this is"
          + " processed at once and reported late; size it from the agents' publish delay"
          + " (docs/streaming-design.md).";
  public static final long CHECK_GRACE_MS_DEFAULT = 5_000L;

  public static final String CHECK_IDLE_FLUSH_MS_CONFIG = "check.idle.flush.ms";
  public static final String CHECK_IDLE_FLUSH_MS_DOC =
      "Stream time (record timestamps) without a new transaction of a tenant after which its buffered"
          + " transactions are flushed: released in canonical order, and reads still waiting for a writer"
          + " reported as ThinAirRead, as at the end of 'isowatch check'. For replays of finite topics and"
          + " clients that stop. A transaction of that tenant arriving later is processed as late. -1: never.";
  public static final long CHECK_IDLE_FLUSH_MS_DEFAULT = -1L;

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
  public static final String HTTP_HOST_DOC = "Address the HTTP endpoint binds to.";
  public static final String HTTP_HOST_DEFAULT = "0.0.0.0";

  public static final String SHUTDOWN_TIMEOUT_MS_CONFIG = "shutdown.timeout.ms";
  public static final String SHUTDOWN_TIMEOUT_MS_DOC =
      "How long a shutdown (SIGTERM, Ctrl-C) waits for Kafka Streams to commit and close.";
  public static final long SHUTDOWN_TIMEOUT_MS_DEFAULT = 30_000L;

  /** The declared keys; docs/config-reference.md is generated from it. */
  public static final ConfigDef CONFIG_DEF = new ConfigDef()
      .define(BOOTSTRAP_SERVERS_CONFIG, Type.STRING, BOOTSTRAP_SERVERS_DEFAULT,
          new ConfigDef.NonEmptyString(), Importance.HIGH, BOOTSTRAP_SERVERS_DOC)
      .define(SCHEMA_REGISTRY_URL_CONFIG, Type.STRING, SCHEMA_REGISTRY_URL_DEFAULT,
          new ConfigDef.NonEmptyString(), Importance.HIGH, SCHEMA_REGISTRY_URL_DOC)
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
      .define(CHECK_LEVELS_CONFIG, Type.LIST, CHECK_LEVELS_DEFAULT,
          ConfigDef.ValidList.in("SSER", "SER", "SI"), Importance.HIGH, CHECK_LEVELS_DOC)
      .define(CHECK_GRACE_MS_CONFIG, Type.LONG, CHECK_GRACE_MS_DEFAULT, ConfigDef.Range.atLeast(0),
          Importance.HIGH, CHECK_GRACE_MS_DOC)
      .define(CHECK_IDLE_FLUSH_MS_CONFIG, Type.LONG, CHECK_IDLE_FLUSH_MS_DEFAULT, ConfigDef.Range.atLeast(-1),
          Importance.MEDIUM, CHECK_IDLE_FLUSH_MS_DOC)
      .define(CHECK_RT_SKEW_US_CONFIG, Type.LONG, CHECK_RT_SKEW_US_DEFAULT, ConfigDef.Range.atLeast(0),
          Importance.MEDIUM, CHECK_RT_SKEW_US_DOC)
      .define(CHECK_INITIAL_VALUE_CONFIG, Type.STRING, CHECK_INITIAL_VALUE_DEFAULT,
          new InitialValueValidator(), Importance.LOW, CHECK_INITIAL_VALUE_DOC)
      .define(CHECK_MAX_ANOMALIES_CONFIG, Type.INT, CHECK_MAX_ANOMALIES_DEFAULT, ConfigDef.Range.atLeast(1),
          Importance.LOW, CHECK_MAX_ANOMALIES_DOC)
      .define(VERDICT_INTERVAL_MS_CONFIG, Type.LONG, VERDICT_INTERVAL_MS_DEFAULT, ConfigDef.Range.atLeast(1),
          Importance.MEDIUM, VERDICT_INTERVAL_MS_DOC)
      .define(HTTP_PORT_CONFIG, Type.INT, HTTP_PORT_DEFAULT, ConfigDef.Range.between(-1, 65_535),
          Importance.MEDIUM, HTTP_PORT_DOC)
      .define(HTTP_HOST_CONFIG, Type.STRING, HTTP_HOST_DEFAULT, new ConfigDef.NonEmptyString(),
          Importance.LOW, HTTP_HOST_DOC)
      .define(SHUTDOWN_TIMEOUT_MS_CONFIG, Type.LONG, SHUTDOWN_TIMEOUT_MS_DEFAULT, ConfigDef.Range.atLeast(0),
          Importance.LOW, SHUTDOWN_TIMEOUT_MS_DOC);

  /**
   * @param originals the merged properties (see {@link ConfigSources}); unknown keys other than
   *     {@value #KAFKA_PREFIX}-prefixed ones are ignored
   * @throws ConfigException when a value has the wrong type or is out of range
   */
  public IsoWatchStreamsConfig(final Map<?, ?> originals) {
    super(CONFIG_DEF, originals, false);
  }

  /** The environment variable that sets a key: {@code ISOWATCH_} + upper case, dots as underscores. */
  public static String envName(final String key) {
    return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  /** The properties for {@code new KafkaStreams(topology, props)}: IsoWatch's, then the passthrough. */
  public Properties streamsProperties() {
    final Properties p = new Properties();
    // No global stores here; enabling it only silences Kafka 4's start-up warning about it.
    p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, "true");
    p.putAll(kafkaPassthrough());
    // IsoWatch's own keys win over a passthrough of the same name: one place sets each.
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, getString(APPLICATION_ID_CONFIG));
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, getString(BOOTSTRAP_SERVERS_CONFIG));
    p.put(StreamsConfig.STATE_DIR_CONFIG, getString(STATE_DIR_CONFIG));
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, getString(PROCESSING_GUARANTEE_CONFIG));
    return p;
  }

  /**
   * Properties for an Admin client (topic creation): bootstrap servers and the passthrough, where
   * {@code admin.}-prefixed keys lose their prefix and other clients' prefixed keys are left out.
   */
  public Map<String, Object> adminProperties() {
    final Map<String, Object> p = new HashMap<>();
    kafkaPassthrough().forEach((k, v) -> {
      if (k.startsWith("admin.")) {
        p.put(k.substring("admin.".length()), v);
      } else if (OTHER_CLIENT_PREFIXES.stream().noneMatch(k::startsWith)) {
        p.put(k, v);
      }
    });
    p.put("bootstrap.servers", getString(BOOTSTRAP_SERVERS_CONFIG));
    return p;
  }

  /** Every {@value #KAFKA_PREFIX}-prefixed property, without the prefix. */
  public Map<String, Object> kafkaPassthrough() {
    return originalsWithPrefix(KAFKA_PREFIX, true);
  }

  /** The check options of every tenant. */
  public CheckOptions checkOptions() {
    return new CheckOptions(levels(), initialValue(), getLong(CHECK_RT_SKEW_US_CONFIG),
        getInt(CHECK_MAX_ANOMALIES_CONFIG));
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

  public long verdictIntervalMs() {
    return getLong(VERDICT_INTERVAL_MS_CONFIG);
  }

  public AvroSerdeConfig avroSerdeConfig() {
    return new AvroSerdeConfig(URI.create(getString(SCHEMA_REGISTRY_URL_CONFIG)),
        getBoolean(SCHEMAS_AUTO_REGISTER_CONFIG));
  }

  /** The topics to read and write, with the replication used when creating them. */
  public Topics topics() {
    final short replication = getShort(TOPICS_REPLICATION_CONFIG);
    return replication == TopicSpec.BROKER_DEFAULT_REPLICATION
        ? Topics.defaults()
        : Topics.defaults().withReplication(replication);
  }

  private Long initialValue() {
    final String v = getString(CHECK_INITIAL_VALUE_CONFIG).trim();
    return "null".equalsIgnoreCase(v) ? null : Long.valueOf(v);
  }

  /** A long or the word null. */
  private static final class InitialValueValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      final String s = value == null ? "" : value.toString().trim();
      if ("null".equalsIgnoreCase(s)) {
        return;
      }
      try {
        Long.parseLong(s);
      } catch (final NumberFormatException e) {
        throw new ConfigException(name, value, "must be an integer or null");
      }
    }

    @Override
    public String toString() {
      return "an integer, or null";
    }
  }
}
