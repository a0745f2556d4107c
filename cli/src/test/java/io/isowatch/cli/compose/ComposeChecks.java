package io.isowatch.cli.compose;

import io.isowatch.cli.Main;
import io.isowatch.cli.Services;
import io.isowatch.streams.ConfigSources;
import io.isowatch.streams.IsoWatchStreamsConfig;
import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

/**
 * What can be checked of a compose file without Docker: the rules IsoWatch's stack keeps. Each
 * check adds one line per problem, naming the service; an empty list means the file is fine.
 *
 * <ul>
 *   <li>every long-running service has a health check (one-shot jobs, {@code restart: "no"} and
 *       awaited with {@code service_completed_successfully}, need none);
 *   <li>every {@code depends_on} uses the long form with {@code service_healthy} (on a service with
 *       a health check) or {@code service_completed_successfully} (on a one-shot job);
 *   <li>every service has an image or a build whose context and Dockerfile exist;
 *   <li>every bind-mounted file or directory exists, every named volume is declared;
 *   <li>every published port is bound to 127.0.0.1;
 *   <li>every {@code ISOWATCH_*} variable is a configuration key of {@code isowatch run}, or an
 *       {@code ISOWATCH_KAFKA_*} passthrough naming a real Kafka client or Streams setting;
 *   <li>every IsoWatch command parses with the real command line ({@code run}, {@code agent}, …);
 *   <li>Prometheus scrapes the checker on the port the checker serves, and its rule files are
 *       mounted from files that exist;
 *   <li>the checker's HTTP settings would start: a non-loopback {@code ISOWATCH_HTTP_HOST} has a token
 *       or {@code ISOWATCH_HTTP_ALLOW_UNAUTHENTICATED=true} (the checker's own rule, {@link
 *       IsoWatchStreamsConfig#requireSafeHttpExposure});
 *   <li>a checker Prometheus scrapes binds beyond loopback, and when it has a token Prometheus sends
 *       that same token ({@code authorization.credentials_file} mounted from a file or an inline
 *       config, or {@code authorization.credentials}).
 * </ul>
 */
final class ComposeChecks {
  private static final Set<String> CONDITIONS = Set.of("service_healthy", "service_completed_successfully");
  private static final Pattern INTERPOLATION = Pattern.compile("\\$\\{([A-Z_]+)(?::-([^}]*))?}");
  private static final String KAFKA_ENV = IsoWatchStreamsConfig.ENV_PREFIX + "KAFKA_";
  private static final List<String> CLIENT_PREFIXES = List.of(
      "producer.", "consumer.", "main.consumer.", "restore.consumer.", "global.consumer.", "admin.");

  private final Path dir;
  private final Map<String, Object> compose;
  private final Map<String, Map<String, Object>> services = new LinkedHashMap<>();
  private final List<String> problems = new ArrayList<>();

  private ComposeChecks(final Path file) throws IOException {
    this.dir = file.toAbsolutePath().getParent();
    try (Reader in = Files.newBufferedReader(file)) {
      this.compose = map(new Yaml().load(in));
    }
    map(compose.get("services")).forEach((name, spec) -> services.put(name, map(spec)));
  }

  /** The problems of the compose file {@code file}; paths in it are relative to its directory. */
  static List<String> problems(final Path file) throws IOException {
    final ComposeChecks c = new ComposeChecks(file);
    if (c.services.isEmpty()) {
      c.problems.add("no services");
    }
    c.services.forEach((name, spec) -> {
      c.checkHealth(name, spec);
      c.checkDependencies(name, spec);
      c.checkImage(name, spec);
      c.checkVolumes(name, spec);
      c.checkPorts(name, spec);
      c.checkEnvironment(name, spec);
      c.checkCommand(name, spec);
      c.checkHttpExposure(name, spec);
    });
    c.checkPrometheus();
    return c.problems;
  }

  /** The services of {@code file}, for tests that look at one. */
  static Map<String, Map<String, Object>> services(final Path file) throws IOException {
    return new ComposeChecks(file).services;
  }

  private boolean oneShot(final String name) {
    final Map<String, Object> spec = services.get(name);
    return spec != null && "no".equals(String.valueOf(spec.get("restart")));
  }

  private void checkHealth(final String name, final Map<String, Object> spec) {
    if (oneShot(name)) {
      return;
    }
    if (!hasHealthCheck(spec)) {
      problems.add(name + ": no health check");
    }
  }

  private static boolean hasHealthCheck(final Map<String, Object> spec) {
    final Map<String, Object> health = map(spec.get("healthcheck"));
    return !Boolean.TRUE.equals(health.get("disable")) && health.get("test") != null;
  }

  private void checkDependencies(final String name, final Map<String, Object> spec) {
    final Object deps = spec.get("depends_on");
    if (deps == null) {
      return;
    }
    if (!(deps instanceof Map<?, ?>)) {
      problems.add(name + ": depends_on must use the long form with a condition");
      return;
    }
    map(deps).forEach((dep, v) -> {
      final String condition = String.valueOf(map(v).get("condition"));
      if (!services.containsKey(dep)) {
        problems.add(name + ": depends on unknown service " + dep);
      } else if (!CONDITIONS.contains(condition)) {
        problems.add(name + ": depends on " + dep + " with condition " + condition
            + " (service_healthy or service_completed_successfully)");
      } else if ("service_healthy".equals(condition) && !hasHealthCheck(services.get(dep))) {
        problems.add(name + ": waits for " + dep + " to be healthy, which has no health check");
      } else if ("service_completed_successfully".equals(condition) && !oneShot(dep)) {
        problems.add(name + ": waits for " + dep + " to complete, which is not a one-shot job (restart: \"no\")");
      }
    });
  }

  private void checkImage(final String name, final Map<String, Object> spec) {
    final Object build = spec.get("build");
    if (build == null) {
      if (spec.get("image") == null) {
        problems.add(name + ": neither image nor build");
      }
      return;
    }
    final Map<String, Object> b = build instanceof String s ? Map.of("context", s) : map(build);
    final Path context = dir.resolve(String.valueOf(b.getOrDefault("context", "."))).normalize();
    if (!Files.isDirectory(context)) {
      problems.add(name + ": build context " + context + " does not exist");
      return;
    }
    final Path dockerfile = context.resolve(String.valueOf(b.getOrDefault("dockerfile", "Dockerfile")));
    if (!Files.isRegularFile(dockerfile)) {
      problems.add(name + ": Dockerfile " + dockerfile + " does not exist");
    }
  }

  private void checkVolumes(final String name, final Map<String, Object> spec) {
    final Set<String> declared = map(compose.get("volumes")).keySet();
    for (final Object v : list(spec.get("volumes"))) {
      final String source = String.valueOf(v).split(":")[0];
      if (source.startsWith(".") || source.startsWith("/")) {
        if (!Files.exists(dir.resolve(source).normalize())) {
          problems.add(name + ": bind-mounted " + source + " does not exist");
        }
      } else if (!declared.contains(source)) {
        problems.add(name + ": named volume " + source + " is not declared under volumes");
      }
    }
  }

  private void checkPorts(final String name, final Map<String, Object> spec) {
    for (final Object p : list(spec.get("ports"))) {
      final String port = String.valueOf(p);
      if (!port.startsWith("127.0.0.1:")) {
        problems.add(name + ": port " + port + " is not bound to 127.0.0.1");
      }
    }
  }

  private void checkEnvironment(final String name, final Map<String, Object> spec) {
    final Set<String> keys = IsoWatchStreamsConfig.CONFIG_DEF.names();
    for (final String variable : environment(spec).keySet()) {
      if (!variable.startsWith(IsoWatchStreamsConfig.ENV_PREFIX)) {
        continue;
      }
      if (variable.startsWith(KAFKA_ENV)) {
        final String kafkaKey = variable.substring(KAFKA_ENV.length()).toLowerCase(Locale.ROOT).replace('_', '.');
        if (!isKafkaSetting(kafkaKey)) {
          problems.add(name + ": " + variable + " sets kafka." + kafkaKey + ", which no Kafka client or Streams declares");
        }
      } else if (keys.stream().noneMatch(k -> IsoWatchStreamsConfig.envName(k).equals(variable))) {
        problems.add(name + ": " + variable + " is not a configuration key of isowatch run");
      }
    }
  }

  private static boolean isKafkaSetting(final String key) {
    String k = key;
    for (final String prefix : CLIENT_PREFIXES) {
      if (k.startsWith(prefix)) {
        k = k.substring(prefix.length());
        break;
      }
    }
    final Set<String> all = new HashSet<>(StreamsConfig.configDef().names());
    all.addAll(ProducerConfig.configNames());
    all.addAll(ConsumerConfig.configNames());
    all.addAll(AdminClientConfig.configNames());
    return all.contains(k);
  }

  /** Commands of services running the IsoWatch image must parse with the real command line. */
  private void checkCommand(final String name, final Map<String, Object> spec) {
    if (spec.get("build") == null || spec.get("command") == null) {
      return;
    }
    final List<String> args = new ArrayList<>();
    for (final Object a : list(spec.get("command"))) {
      args.add(interpolate(String.valueOf(a)));
    }
    try {
      Main.commandLine(Services.real()).parseArgs(args.toArray(String[]::new));
    } catch (final CommandLine.ParameterException e) {
      problems.add(name + ": command " + args + " does not parse: " + e.getMessage());
    }
  }

  /** A checker whose HTTP settings the checker itself would refuse at startup. */
  private void checkHttpExposure(final String name, final Map<String, Object> spec) {
    if (!list(spec.get("command")).contains("run")) {
      return;
    }
    try {
      checkerConfig(spec).requireSafeHttpExposure();
    } catch (final ConfigException e) {
      problems.add(name + ": the checker refuses to start: " + e.getMessage());
    }
  }

  /** The checker's configuration from its environment, as `isowatch run` would load it. */
  private static IsoWatchStreamsConfig checkerConfig(final Map<String, Object> spec) {
    final Map<String, String> env = new LinkedHashMap<>();
    environment(spec).forEach((k, v) -> env.put(k, interpolate(v)));
    try {
      return ConfigSources.load(Optional.empty(), env, Map.of());
    } catch (final IOException e) {
      throw new IllegalStateException("no file is read", e);
    }
  }

  /** The checker serves /metrics where Prometheus scrapes it; Prometheus' rule files are mounted. */
  private void checkPrometheus() {
    final Map<String, Object> prometheus = services.get("prometheus");
    if (prometheus == null) {
      problems.add("no prometheus service");
      return;
    }
    final Map<String, Path> mounts = new LinkedHashMap<>();
    for (final Object v : list(prometheus.get("volumes"))) {
      final String[] parts = String.valueOf(v).split(":");
      if (parts.length >= 2) {
        mounts.put(parts[1], dir.resolve(parts[0]).normalize());
      }
    }
    final Path config = mounts.get("/etc/prometheus/prometheus.yml");
    if (config == null || !Files.isRegularFile(config)) {
      problems.add("prometheus: /etc/prometheus/prometheus.yml is not mounted from a file in the repository");
      return;
    }
    final Map<String, Object> prom;
    try (Reader in = Files.newBufferedReader(config)) {
      prom = map(new Yaml().load(in));
    } catch (final IOException e) {
      problems.add("prometheus: cannot read " + config + ": " + e);
      return;
    }
    for (final Object rules : list(prom.get("rule_files"))) {
      final Path source = mounts.get(String.valueOf(rules));
      if (source == null || !Files.isRegularFile(source)) {
        problems.add("prometheus: rule file " + rules + " is not mounted from a file in the repository");
      }
    }
    boolean checkerScraped = false;
    for (final Object job : list(prom.get("scrape_configs"))) {
      for (final Object sc : list(map(job).get("static_configs"))) {
        for (final Object t : list(map(sc).get("targets"))) {
          final URI target = URI.create("http://" + t);
          final Map<String, Object> service = services.get(target.getHost());
          if (service == null) {
            if (!"localhost".equals(target.getHost())) {
              problems.add("prometheus: scrape target " + t + " is not a service");
            }
            continue;
          }
          if (list(service.get("command")).contains("run")) {
            checkerScraped = true;
            final String port = environment(service).getOrDefault(
                IsoWatchStreamsConfig.envName(IsoWatchStreamsConfig.HTTP_PORT_CONFIG),
                String.valueOf(IsoWatchStreamsConfig.HTTP_PORT_DEFAULT));
            if (!port.equals(String.valueOf(target.getPort()))) {
              problems.add("prometheus: scrapes " + t + " but the checker serves /metrics on port " + port);
            }
            checkScrapeAccess(String.valueOf(t), map(job), service, prometheus, mounts);
          }
        }
      }
    }
    if (!checkerScraped) {
      problems.add("prometheus: no scrape target is the checker (a service running `run`)");
    }
  }

  /** The checker is reachable from Prometheus' container, and Prometheus sends its token. */
  private void checkScrapeAccess(final String target, final Map<String, Object> job, final Map<String, Object> checker,
      final Map<String, Object> prometheus, final Map<String, Path> mounts) {
    final IsoWatchStreamsConfig config;
    try {
      config = checkerConfig(checker);
    } catch (final ConfigException e) {
      return; // reported by checkHttpExposure or by the environment check
    }
    final String host = config.getString(IsoWatchStreamsConfig.HTTP_HOST_CONFIG);
    if (isLoopback(host)) {
      problems.add("prometheus: scrapes " + target + " but the checker binds its HTTP endpoint to " + host
          + " inside its container (set " + IsoWatchStreamsConfig.envName(IsoWatchStreamsConfig.HTTP_HOST_CONFIG)
          + ": 0.0.0.0 and a token)");
      return;
    }
    final Optional<String> token = config.httpAuthToken();
    if (token.isEmpty()) {
      return;
    }
    final Map<String, Object> auth = map(job.get("authorization"));
    final Optional<String> sent;
    if (auth.get("credentials") != null) {
      sent = Optional.of(String.valueOf(auth.get("credentials")));
    } else if (auth.get("credentials_file") != null) {
      sent = mountedContent(String.valueOf(auth.get("credentials_file")), prometheus, mounts);
    } else {
      problems.add("prometheus: scrapes " + target + " without the checker's token (authorization.credentials_file)");
      return;
    }
    if (sent.isEmpty()) {
      problems.add("prometheus: the token file " + auth.get("credentials_file")
          + " is not mounted from a file or a config of the compose file");
    } else if (!sent.get().strip().equals(token.get())) {
      problems.add("prometheus: scrapes " + target + " with a token other than the checker's "
          + IsoWatchStreamsConfig.envName(IsoWatchStreamsConfig.HTTP_AUTH_TOKEN_CONFIG));
    }
  }

  /** What a path in Prometheus' container holds: a bind-mounted file or a compose config. */
  private Optional<String> mountedContent(final String path, final Map<String, Object> prometheus,
      final Map<String, Path> mounts) {
    final Path file = mounts.get(path);
    if (file != null) {
      try {
        return Optional.of(Files.readString(file));
      } catch (final IOException e) {
        return Optional.empty();
      }
    }
    for (final Object c : list(prometheus.get("configs"))) {
      final Map<String, Object> ref = map(c);
      if (path.equals(String.valueOf(ref.get("target")))) {
        final Map<String, Object> config = map(map(compose.get("configs")).get(String.valueOf(ref.get("source"))));
        if (config.get("content") != null) {
          return Optional.of(interpolate(String.valueOf(config.get("content"))));
        }
        if (config.get("file") != null) {
          try {
            return Optional.of(Files.readString(dir.resolve(String.valueOf(config.get("file")))));
          } catch (final IOException e) {
            return Optional.empty();
          }
        }
      }
    }
    return Optional.empty();
  }

  private static boolean isLoopback(final String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (final UnknownHostException e) {
      return false;
    }
  }

  private static Map<String, String> environment(final Map<String, Object> spec) {
    final Map<String, String> env = new LinkedHashMap<>();
    final Object e = spec.get("environment");
    if (e instanceof Map<?, ?> m) {
      m.forEach((k, v) -> env.put(String.valueOf(k), String.valueOf(v)));
    } else {
      for (final Object item : list(e)) {
        final String s = String.valueOf(item);
        final int eq = s.indexOf('=');
        env.put(eq < 0 ? s : s.substring(0, eq), eq < 0 ? "" : s.substring(eq + 1));
      }
    }
    return env;
  }

  /** Compose's ${VAR:-default}, with the default (the test environment sets none of them). */
  private static String interpolate(final String s) {
    final Matcher m = INTERPOLATION.matcher(s);
    final StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(m.group(2) == null ? "" : m.group(2)));
    }
    m.appendTail(out);
    return out.toString();
  }

  @SuppressWarnings("unchecked") // YAML mappings are Map<String, Object>.
  private static Map<String, Object> map(final Object o) {
    return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  private static List<Object> list(final Object o) {
    return o instanceof List<?> l ? new ArrayList<>(l) : o == null ? List.of() : List.of(o);
  }
}
