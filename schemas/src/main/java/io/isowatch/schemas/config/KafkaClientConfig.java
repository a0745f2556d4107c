package io.isowatch.schemas.config;

import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.RegistryClientSecurity;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;

/**
 * How a Kafka client of IsoWatch reaches the broker and the schema registry: the bootstrap servers,
 * the registry's URL, authentication and TLS, whether schemas may be registered, and every {@value
 * #KAFKA_PREFIX}-prefixed passthrough (security needs no code). The agent's sink reads these keys
 * ({@code isowatch agent --client-config}); the streaming checker's {@code IsoWatchStreamsConfig}
 * declares them first and adds its own, so one file serves both.
 */
public class KafkaClientConfig extends AbstractConfig {
  /** Prefix of the properties passed through to Kafka Streams and its clients. */
  public static final String KAFKA_PREFIX = "kafka.";

  /** Kafka Streams' prefixes of settings meant for one kind of client other than the admin client. */
  private static final List<String> OTHER_CLIENT_PREFIXES = List.of(
      "producer.", "consumer.", "main.consumer.", "restore.consumer.", "global.consumer.");

  /** Prefix of the environment variables read by {@link ConfigLayers}. */
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

  public static final String SCHEMA_REGISTRY_AUTH_USERNAME_CONFIG = "schema.registry.auth.username";
  public static final String SCHEMA_REGISTRY_AUTH_USERNAME_DOC =
      "User name for HTTP basic authentication to the schema registry; empty: no authentication.";

  public static final String SCHEMA_REGISTRY_AUTH_PASSWORD_CONFIG = "schema.registry.auth.password";
  public static final String SCHEMA_REGISTRY_AUTH_PASSWORD_DOC =
      "Password for HTTP basic authentication to the schema registry (logged as [hidden]).";

  public static final String SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION_CONFIG = "schema.registry.ssl.truststore.location";
  public static final String SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION_DOC =
      "Trust store for an https:// registry whose certificate the JVM's default trust store does not"
          + " accept; empty: the JVM's default.";

  public static final String SCHEMA_REGISTRY_SSL_TRUSTSTORE_TYPE_CONFIG = "schema.registry.ssl.truststore.type";
  public static final String SCHEMA_REGISTRY_SSL_TRUSTSTORE_TYPE_DOC = "Type of the registry trust store: JKS or PKCS12.";

  public static final String SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD_CONFIG = "schema.registry.ssl.truststore.password";
  public static final String SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD_DOC =
      "Password of the registry trust store (logged as [hidden]).";

  public static final String SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION_CONFIG = "schema.registry.ssl.keystore.location";
  public static final String SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION_DOC =
      "Key store with the client certificate, for a registry requiring mutual TLS; empty: none.";

  public static final String SCHEMA_REGISTRY_SSL_KEYSTORE_TYPE_CONFIG = "schema.registry.ssl.keystore.type";
  public static final String SCHEMA_REGISTRY_SSL_KEYSTORE_TYPE_DOC = "Type of the registry key store: JKS or PKCS12.";

  public static final String SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD_CONFIG = "schema.registry.ssl.keystore.password";
  public static final String SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD_DOC =
      "Password of the registry key store (logged as [hidden]).";

  public static final String SCHEMA_REGISTRY_SSL_KEY_PASSWORD_CONFIG = "schema.registry.ssl.key.password";
  public static final String SCHEMA_REGISTRY_SSL_KEY_PASSWORD_DOC =
      "Password of the private key in the registry key store, when it differs from the store's (logged as [hidden]).";

  public static final String SCHEMAS_AUTO_REGISTER_CONFIG = "schemas.auto.register";
  public static final String SCHEMAS_AUTO_REGISTER_DOC =
      "Whether the checker registers its output schemas itself. Off in production, where the release"
          + " registers them and an unregistered schema must fail; --dev turns it on.";
  public static final boolean SCHEMAS_AUTO_REGISTER_DEFAULT = false;

  /** The client keys alone (the agent's). */
  public static final ConfigDef CONFIG_DEF = defineConnection(new ConfigDef())
      .define(SCHEMAS_AUTO_REGISTER_CONFIG, Type.BOOLEAN, SCHEMAS_AUTO_REGISTER_DEFAULT,
          Importance.MEDIUM, SCHEMAS_AUTO_REGISTER_DOC);

  /** Declares the broker and registry keys in {@code def}, the first keys of every IsoWatch configuration. */
  protected static ConfigDef defineConnection(final ConfigDef def) {
    return def
      .define(BOOTSTRAP_SERVERS_CONFIG, Type.STRING, BOOTSTRAP_SERVERS_DEFAULT,
          new ConfigDef.NonEmptyString(), Importance.HIGH, BOOTSTRAP_SERVERS_DOC)
      .define(SCHEMA_REGISTRY_URL_CONFIG, Type.STRING, SCHEMA_REGISTRY_URL_DEFAULT,
          new ConfigDef.NonEmptyString(), Importance.HIGH, SCHEMA_REGISTRY_URL_DOC)
      .define(SCHEMA_REGISTRY_AUTH_USERNAME_CONFIG, Type.STRING, "", Importance.MEDIUM,
          SCHEMA_REGISTRY_AUTH_USERNAME_DOC)
      .define(SCHEMA_REGISTRY_AUTH_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.MEDIUM,
          SCHEMA_REGISTRY_AUTH_PASSWORD_DOC)
      .define(SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION_CONFIG, Type.STRING, "", Importance.MEDIUM,
          SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION_DOC)
      .define(SCHEMA_REGISTRY_SSL_TRUSTSTORE_TYPE_CONFIG, Type.STRING, "JKS",
          ConfigDef.CaseInsensitiveValidString.in("JKS", "PKCS12"), Importance.LOW,
          SCHEMA_REGISTRY_SSL_TRUSTSTORE_TYPE_DOC)
      .define(SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.MEDIUM,
          SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD_DOC)
      .define(SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION_CONFIG, Type.STRING, "", Importance.LOW,
          SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION_DOC)
      .define(SCHEMA_REGISTRY_SSL_KEYSTORE_TYPE_CONFIG, Type.STRING, "JKS",
          ConfigDef.CaseInsensitiveValidString.in("JKS", "PKCS12"), Importance.LOW,
          SCHEMA_REGISTRY_SSL_KEYSTORE_TYPE_DOC)
      .define(SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.LOW,
          SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD_DOC)
      .define(SCHEMA_REGISTRY_SSL_KEY_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.LOW,
          SCHEMA_REGISTRY_SSL_KEY_PASSWORD_DOC);
  }

  /** @throws org.apache.kafka.common.config.ConfigException when a value has the wrong type or is out of range */
  public KafkaClientConfig(final Map<?, ?> originals) {
    this(CONFIG_DEF, originals);
  }

  protected KafkaClientConfig(final ConfigDef definition, final Map<?, ?> originals) {
    super(definition, originals, false);
  }

  /**
   * The client settings from their sources, lowest precedence first: the defaults, the properties
   * file, the environment, the flags ({@link ConfigLayers}).
   *
   * @throws IOException when the file cannot be read
   * @throws org.apache.kafka.common.config.ConfigException when a value is invalid
   */
  public static KafkaClientConfig load(
      final Optional<Path> file, final Map<String, String> env, final Map<String, String> flags)
      throws IOException {
    return new KafkaClientConfig(ConfigLayers.merge(CONFIG_DEF, file, env, flags));
  }

  /** The environment variable that sets a key: {@code ISOWATCH_} + upper case, dots as underscores. */
  public static String envName(final String key) {
    return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  /**
   * Properties for an Admin client (topic creation): bootstrap servers and the passthrough, where
   * {@code admin.}-prefixed keys lose their prefix and other clients' prefixed keys are left out.
   */
  public Map<String, Object> adminProperties() {
    return clientProperties("admin.");
  }

  /**
   * Properties for a plain producer or consumer outside Kafka Streams (the agent's sink, {@code
   * isowatch dlq replay}, {@code isowatch reset}): bootstrap servers and the passthrough, where keys
   * with {@code clientPrefix} (e.g. {@code producer.}) lose it and other clients' prefixed keys are
   * left out. Security settings ({@code kafka.security.protocol}, {@code kafka.sasl.*}, {@code
   * kafka.ssl.*}) have no prefix and so reach every client.
   */
  public Map<String, Object> clientProperties(final String clientPrefix) {
    final Map<String, Object> p = new HashMap<>();
    final Map<String, Object> prefixed = new HashMap<>();
    kafkaPassthrough().forEach((k, v) -> {
      if (k.startsWith(clientPrefix)) {
        prefixed.put(k.substring(clientPrefix.length()), v);
      } else if (!k.startsWith("admin.") && OTHER_CLIENT_PREFIXES.stream().noneMatch(k::startsWith)) {
        p.put(k, v);
      }
    });
    // A prefixed key is more specific than the same key without prefix.
    p.putAll(prefixed);
    p.put("bootstrap.servers", getString(BOOTSTRAP_SERVERS_CONFIG));
    return p;
  }

  /**
   * Properties for a plain consumer (the web UI's feed): bootstrap servers and the passthrough, where
   * {@code consumer.}-prefixed keys lose their prefix (and win over the same key without it) and
   * other clients' prefixed keys are left out.
   */
  public Map<String, Object> consumerProperties() {
    return clientProperties("consumer.");
  }

  /** Every {@value #KAFKA_PREFIX}-prefixed property, without the prefix. */
  public Map<String, Object> kafkaPassthrough() {
    return originalsWithPrefix(KAFKA_PREFIX, true);
  }

  public AvroSerdeConfig avroSerdeConfig() {
    return new AvroSerdeConfig(URI.create(getString(SCHEMA_REGISTRY_URL_CONFIG)),
        getBoolean(SCHEMAS_AUTO_REGISTER_CONFIG), registryClientSecurity());
  }

  /** Authentication and TLS of the schema registry's client. */
  public RegistryClientSecurity registryClientSecurity() {
    return new RegistryClientSecurity(
        getString(SCHEMA_REGISTRY_AUTH_USERNAME_CONFIG), getPassword(SCHEMA_REGISTRY_AUTH_PASSWORD_CONFIG),
        new RegistryClientSecurity.Store(getString(SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION_CONFIG),
            getString(SCHEMA_REGISTRY_SSL_TRUSTSTORE_TYPE_CONFIG),
            getPassword(SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD_CONFIG)),
        new RegistryClientSecurity.Store(getString(SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION_CONFIG),
            getString(SCHEMA_REGISTRY_SSL_KEYSTORE_TYPE_CONFIG),
            getPassword(SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD_CONFIG)),
        getPassword(SCHEMA_REGISTRY_SSL_KEY_PASSWORD_CONFIG));
  }
}
