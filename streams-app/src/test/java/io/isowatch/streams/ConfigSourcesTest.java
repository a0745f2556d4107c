package io.isowatch.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigSourcesTest {
  @TempDir Path dir;

  @Test
  void shouldUseTheDefaultsWhenNothingIsSet() throws Exception {
    // When
    final IsoWatchStreamsConfig config = ConfigSources.load(Optional.empty(), Map.of(), Map.of());
    // Then
    final Properties streams = config.streamsProperties();
    assertEquals("isowatch-checker", streams.get(StreamsConfig.APPLICATION_ID_CONFIG));
    assertEquals(StreamsConfig.EXACTLY_ONCE_V2, streams.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG));
    assertEquals("127.0.0.1:9092", streams.get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG));
    assertFalse(config.avroSerdeConfig().autoRegister());
    assertFalse(config.getBoolean(IsoWatchStreamsConfig.TOPICS_CREATE_CONFIG));
    assertEquals(9464, config.getInt(IsoWatchStreamsConfig.HTTP_PORT_CONFIG));
    assertEquals(Level.CLASSIC, config.checkOptions().levels());
    assertEquals(0L, config.checkOptions().initialValue());
    assertEquals(5_000_000L, config.graceMicros());
  }

  @Test
  void shouldReadTheHttpTokenFromTheEnvironmentAndHideItWhenPrintedWhenItIsSet() throws Exception {
    // Given
    final Map<String, String> env = Map.of("ISOWATCH_HTTP_AUTH_TOKEN", "t0ps3cret",
        "ISOWATCH_KAFKA_CONSUMER_MAX_POLL_RECORDS", "50", "ISOWATCH_KAFKA_PRODUCER_LINGER_MS", "5");
    // When
    final IsoWatchStreamsConfig config = ConfigSources.load(Optional.empty(), env, Map.of());
    final IsoWatchStreamsConfig none = ConfigSources.load(Optional.empty(), Map.of(), Map.of());
    // Then
    assertEquals(Optional.of("t0ps3cret"), config.httpAuthToken());
    assertFalse(config.values().toString().contains("t0ps3cret"), config.values().toString());
    assertEquals(Optional.empty(), none.httpAuthToken());
    // The UI's consumer gets consumer.-prefixed keys without the prefix, and no producer keys.
    assertEquals("50", config.consumerProperties().get("max.poll.records"));
    assertFalse(config.consumerProperties().containsKey("producer.linger.ms"));
    assertFalse(config.consumerProperties().containsKey("linger.ms"));
  }

  @Test
  void shouldLetTheEnvironmentOverrideTheFileAndFlagsOverrideBothWhenAllSetAKey() throws Exception {
    // Given
    final Path file = dir.resolve("isowatch.properties");
    Files.writeString(file, """
        application.id=from-file
        check.grace.ms=100
        check.levels=SER
        schemas.auto.register=false
        check.initial.value=null
        kafka.security.protocol=SASL_SSL
        kafka.sasl.mechanism=SCRAM-SHA-512
        """);
    final Map<String, String> env = Map.of(
        "ISOWATCH_CHECK_GRACE_MS", "250",
        "ISOWATCH_KAFKA_SASL_MECHANISM", "SCRAM-SHA-256",
        "ISOWATCH_JAVA_OPTS", "-Xmx1g");
    // When
    final IsoWatchStreamsConfig config = ConfigSources.load(Optional.of(file), env,
        Map.of(IsoWatchStreamsConfig.SCHEMAS_AUTO_REGISTER_CONFIG, "true"));
    // Then
    assertEquals("from-file", config.getString(IsoWatchStreamsConfig.APPLICATION_ID_CONFIG));
    assertEquals(250_000L, config.graceMicros());
    assertEquals(EnumSet.of(Level.SER), config.levels());
    assertNull(config.checkOptions().initialValue());
    assertTrue(config.avroSerdeConfig().autoRegister());
    final Properties streams = config.streamsProperties();
    assertEquals("SASL_SSL", streams.get("security.protocol"));
    assertEquals("SCRAM-SHA-256", streams.get("sasl.mechanism"));
    assertEquals("SCRAM-SHA-256", config.adminProperties().get("sasl.mechanism"));
    assertFalse(streams.containsKey("java.opts"));
  }

  @Test
  void shouldPreferTheConsumerPrefixedKeyWhenBothFormsAreSetForThePlainConsumer() {
    // Given: the same key with and without the consumer. prefix
    final Map<String, String> settings = new java.util.HashMap<>();
    settings.put("kafka.max.poll.records", "5");
    settings.put("kafka.consumer.max.poll.records", "7");
    settings.put("kafka.producer.linger.ms", "9");
    // When
    final Map<String, Object> consumer = new IsoWatchStreamsConfig(settings).consumerProperties();
    // Then
    assertEquals("7", consumer.get("max.poll.records"));
    assertFalse(consumer.containsKey("linger.ms"));
    assertFalse(consumer.containsKey("producer.linger.ms"));
  }

  @Test
  void shouldHandClientPrefixesOnlyToTheirClientWhenPassingThrough() {
    // Given
    final IsoWatchStreamsConfig config = new IsoWatchStreamsConfig(Map.of(
        "kafka.producer.compression.type", "zstd",
        "kafka.admin.request.timeout.ms", "5000",
        "kafka.ssl.truststore.location", "/etc/kafka/truststore.jks"));
    // When
    final Map<String, Object> admin = config.adminProperties();
    final Properties streams = config.streamsProperties();
    // Then
    assertEquals("zstd", streams.get("producer.compression.type"));
    assertFalse(admin.containsKey("producer.compression.type"));
    assertEquals("5000", admin.get("request.timeout.ms"));
    assertEquals("/etc/kafka/truststore.jks", admin.get("ssl.truststore.location"));
    assertEquals("/etc/kafka/truststore.jks", streams.get("ssl.truststore.location"));
  }

  @Test
  void shouldRefuseTheConfigurationWhenAValueIsInvalid() {
    // Given
    final Map<String, String> env = Map.of("ISOWATCH_CHECK_LEVELS", "SER,XX");
    // When
    final ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigSources.load(Optional.empty(), env, Map.of()));
    // Then
    assertTrue(e.getMessage().contains("check.levels"), e.getMessage());
  }

  @Test
  void shouldRefuseTheInitialValueWhenItIsNeitherANumberNorNull() {
    final ConfigException e = assertThrows(ConfigException.class,
        () -> new IsoWatchStreamsConfig(Map.of(IsoWatchStreamsConfig.CHECK_INITIAL_VALUE_CONFIG, "zero")));
    assertTrue(e.getMessage().contains("check.initial.value"), e.getMessage());
  }

  @Test
  void shouldGiveEveryEngineTheHorizonAndCutFactorFromTheEnvironmentAndRefuseAFactorOutOfRange() throws Exception {
    // When
    final IsoWatchStreamsConfig config = ConfigSources.load(Optional.empty(), Map.of(
        "ISOWATCH_CHECK_HORIZON_TRANSACTIONS", "50000", "ISOWATCH_CHECK_HORIZON_CUT_FACTOR", "4"), Map.of());
    final IsoWatchStreamsConfig defaults = ConfigSources.load(Optional.empty(), Map.of(), Map.of());

    // Then
    assertEquals(io.isowatch.core.online.Horizon.ofTransactions(50_000).withCutFactor(4)
        .withFilters(io.isowatch.core.online.Horizon.DEFAULT_FILTER_BITS, 1L << 28), config.horizon());
    assertEquals(2.0, defaults.horizon().cutFactor());
    assertThrows(ConfigException.class, () -> ConfigSources.load(Optional.empty(),
        Map.of("ISOWATCH_CHECK_HORIZON_CUT_FACTOR", "1"), Map.of()));
  }

  @Test
  void shouldBoundEveryEngineByDefaultAndKeepEverythingOnlyWhenNoLimitIsAsked() throws Exception {
    // When
    final IsoWatchStreamsConfig defaults = ConfigSources.load(Optional.empty(), Map.of(), Map.of());
    final IsoWatchStreamsConfig unbounded = ConfigSources.load(Optional.empty(),
        Map.of("ISOWATCH_CHECK_HORIZON_TRANSACTIONS", "-1"), Map.of());

    // Then
    assertEquals(io.isowatch.core.online.Horizon.ofTransactions(
        IsoWatchStreamsConfig.CHECK_HORIZON_TRANSACTIONS_DEFAULT)
        .withFilters(io.isowatch.core.online.Horizon.DEFAULT_FILTER_BITS, 1L << 28), defaults.horizon());
    assertEquals(20_000L, IsoWatchStreamsConfig.CHECK_HORIZON_TRANSACTIONS_DEFAULT);
    assertTrue(defaults.pruneIntervalMs() > 0);
    assertFalse(unbounded.horizon().enabled());
  }

  @Test
  void shouldCapTheFiltersOfRetiredVersionsAtThePowerOfTwoBelowTheSettingAndRefuseLessThanOneMebibyte()
      throws Exception {
    // When
    final IsoWatchStreamsConfig defaults = ConfigSources.load(Optional.empty(), Map.of(), Map.of());
    final IsoWatchStreamsConfig three = ConfigSources.load(Optional.empty(),
        Map.of("ISOWATCH_CHECK_RETIRED_FILTER_MAX_BYTES", "3000000"), Map.of());

    // Then: 32 MiB (2^28 bits) per filter by default; 3,000,000 bytes round down to 2 MiB (2^24 bits)
    assertEquals(1L << 28, defaults.horizon().maxFilterBits());
    assertEquals(1L << 24, three.horizon().maxFilterBits());
    assertThrows(ConfigException.class, () -> ConfigSources.load(Optional.empty(),
        Map.of("ISOWATCH_CHECK_RETIRED_FILTER_MAX_BYTES", "1000"), Map.of()));
  }

  @Test
  void shouldCapTheRunsOfRetiredVersionsAtTheSettingAndKeepNoneAtZero() throws Exception {
    // When
    final IsoWatchStreamsConfig defaults = ConfigSources.load(Optional.empty(), Map.of(), Map.of());
    final IsoWatchStreamsConfig small = ConfigSources.load(Optional.empty(),
        Map.of("ISOWATCH_CHECK_RETIRED_RUNS_MAX_BYTES", "1600"), Map.of());
    final IsoWatchStreamsConfig none = ConfigSources.load(Optional.empty(),
        Map.of("ISOWATCH_CHECK_RETIRED_RUNS_MAX_BYTES", "0"), Map.of());

    // Then
    assertEquals(64L << 20, defaults.horizon().maxRunBytes());
    assertEquals(1_600L, small.horizon().maxRunBytes());
    assertEquals(0L, none.horizon().maxRunBytes());
    assertThrows(ConfigException.class, () -> ConfigSources.load(Optional.empty(),
        Map.of("ISOWATCH_CHECK_RETIRED_RUNS_MAX_BYTES", "-1"), Map.of()));
  }

  @Test
  void shouldDecideMixedWithTheDefaultLevelWhenCheckLevelsNamesMixed() {
    // Given: MIXED (also spelt "declared") and the level of transactions that declare none, in SQL's name
    final IsoWatchStreamsConfig config = new IsoWatchStreamsConfig(Map.of(
        IsoWatchStreamsConfig.CHECK_LEVELS_CONFIG, "SER,declared",
        IsoWatchStreamsConfig.CHECK_DEFAULT_LEVEL_CONFIG, "read committed"));
    // Then
    assertEquals(java.util.EnumSet.of(io.isowatch.core.check.Level.SER, io.isowatch.core.check.Level.MIXED),
        config.checkOptions().levels());
    assertEquals(io.isowatch.core.check.Level.RC, config.checkOptions().defaultLevel());
    assertEquals(null, new IsoWatchStreamsConfig(Map.of()).checkOptions().defaultLevel());
    // Then: a level MIXED cannot judge a transaction by is refused at start-up, saying why
    final ConfigException ambiguous = assertThrows(ConfigException.class, () -> new IsoWatchStreamsConfig(Map.of(
        IsoWatchStreamsConfig.CHECK_DEFAULT_LEVEL_CONFIG, "repeatable read")));
    assertTrue(ambiguous.getMessage().contains("ambiguous"), ambiguous.getMessage());
  }

  @Test
  void shouldDecideEveryLevelWhenCheckLevelsNamesThem() {
    // Given: every level, in check's spellings, in no particular order
    final Map<String, String> settings = Map.of(IsoWatchStreamsConfig.CHECK_LEVELS_CONFIG,
        "SI,read-committed,RA,causal,PC,PL-2,RR,SER,SSER");
    // When
    final IsoWatchStreamsConfig config = new IsoWatchStreamsConfig(settings);
    // Then
    assertEquals(java.util.EnumSet.complementOf(java.util.EnumSet.of(io.isowatch.core.check.Level.MIXED)),
        config.levels());
    assertEquals(config.levels(), config.checkOptions().levels());
    final ConfigException none = assertThrows(ConfigException.class,
        () -> new IsoWatchStreamsConfig(Map.of(IsoWatchStreamsConfig.CHECK_LEVELS_CONFIG, "")));
    assertTrue(none.getMessage().contains("check.levels"), none.getMessage());
  }
}
