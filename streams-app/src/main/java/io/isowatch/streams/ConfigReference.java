package io.isowatch.streams;

import java.util.List;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Renders {@link IsoWatchStreamsConfig#CONFIG_DEF} as the Markdown of docs/config-reference.md
 * ({@code isowatch run --print-config-docs}); ConfigReferenceTest fails when the committed file is
 * stale.
 */
public final class ConfigReference {
  private ConfigReference() {}

  /** The whole reference page. */
  public static String markdown() {
    final StringBuilder md = new StringBuilder();
    md.append("# `isowatch run` configuration reference\n\n")
        .append("Generated from `io.isowatch.streams.IsoWatchStreamsConfig` by ")
        .append("`isowatch run --print-config-docs`; do not edit by hand (`ConfigReferenceTest` fails when ")
        .append("this file is stale; regenerate with `mvn -pl streams-app -am test -Dtest=ConfigReferenceTest ")
        .append("-Dsurefire.failIfNoSpecifiedTests=false -Disowatch.docs.write=true`).\n\n")
        .append("Precedence, lowest first: the defaults below < the properties file (`--config FILE`) < ")
        .append("environment variables < command-line flags (`--dev` sets `schemas.auto.register=true` and ")
        .append("`topics.create=true`).\n\n")
        .append("Any key starting with `kafka.` is passed, without the prefix, to Kafka Streams and its ")
        .append("clients, e.g. `kafka.security.protocol=SASL_SSL`, `kafka.sasl.mechanism=SCRAM-SHA-512`, ")
        .append("`kafka.sasl.jaas.config=...`, `kafka.ssl.truststore.location=...`, ")
        .append("`kafka.num.stream.threads=2`; in the environment `ISOWATCH_KAFKA_SASL_MECHANISM` sets ")
        .append("`kafka.sasl.mechanism` (lower case, `_` becomes `.`).\n\n")
        .append("| key | environment | type | default | valid values | importance | description |\n")
        .append("| --- | --- | --- | --- | --- | --- | --- |\n");
    final List<ConfigDef.ConfigKey> keys = IsoWatchStreamsConfig.CONFIG_DEF.configKeys().values().stream().toList();
    for (final ConfigDef.ConfigKey k : keys) {
      md.append("| `").append(k.name).append("` | `").append(IsoWatchStreamsConfig.envName(k.name))
          .append("` | ").append(k.type.name().toLowerCase(java.util.Locale.ROOT))
          .append(" | ").append(defaultOf(k))
          .append(" | ").append(k.validator == null ? "" : cell(k.validator.toString()))
          .append(" | ").append(k.importance.name().toLowerCase(java.util.Locale.ROOT))
          .append(" | ").append(cell(k.documentation)).append(" |\n");
    }
    return md.toString();
  }

  private static String defaultOf(final ConfigDef.ConfigKey k) {
    if (!k.hasDefault()) {
      return "(required)";
    }
    final Object v = k.defaultValue;
    if (v == null) {
      return "none";
    }
    final String text = v instanceof List<?> list
        ? String.join(",", list.stream().map(Object::toString).toList())
        : String.valueOf(v);
    return "`" + text + "`";
  }

  private static String cell(final String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }
}
