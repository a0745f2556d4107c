package io.isowatch.streams;

import io.isowatch.schemas.topic.TopicAdmin;
import io.isowatch.schemas.topic.TopicReport;
import io.isowatch.schemas.topic.TopicSpec;
import io.isowatch.schemas.topic.Topics;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code topics list|create}: the command-line face of {@link Topics}, so that scripts read the one
 * Java definition of IsoWatch's topics instead of repeating it (scripts/create-topics.sh).
 *
 * <p>Exit codes: 0 all topics as specified; 1 some existing topic differs from its specification;
 * 2 usage error or cluster unreachable.
 */
@Command(
    name = "topics",
    mixinStandardHelpOptions = true,
    description = "List IsoWatch's topics or create them on a cluster.",
    subcommands = {TopicsCommand.ListTopics.class, TopicsCommand.CreateTopics.class})
public final class TopicsCommand {
  static final int EXIT_OK = 0;
  static final int EXIT_MISMATCH = 1;
  static final int EXIT_ERROR = 2;

  /** The command with IsoWatch's exit-code conventions, for embedding in the main CLI. */
  public static CommandLine commandLine() {
    final CommandLine cmd = new CommandLine(new TopicsCommand());
    // An unreachable cluster is an operational error, not a bug: one line, no stack trace.
    cmd.setExecutionExceptionHandler(
        (e, c, parsed) -> {
          c.getErr().println("topics: " + e);
          return EXIT_ERROR;
        });
    return cmd;
  }

  /** Prints the topic table as tab-separated values with a header line. */
  @Command(name = "list", mixinStandardHelpOptions = true, description = "Print the topic table (TSV).")
  static final class ListTopics implements Callable<Integer> {
    @Spec private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      final PrintWriter out = spec.commandLine().getOut();
      out.println("name\tpartitions\treplication\tconfigs\tkey\tvalue");
      for (final TopicSpec<?, ?> t : Topics.defaults().all()) {
        out.println(
            String.join(
                "\t",
                t.name(),
                Integer.toString(t.partitions()),
                t.explicitReplication().map(String::valueOf).orElse("broker-default"),
                new TreeMap<>(t.configs()).toString(),
                t.keyDescription(),
                t.valueType().getName()));
      }
      out.flush();
      return EXIT_OK;
    }
  }

  /** Creates missing topics and reports existing ones that differ. */
  @Command(
      name = "create",
      mixinStandardHelpOptions = true,
      description = "Create IsoWatch's topics; report existing ones that differ (never alter them).")
  static final class CreateTopics implements Callable<Integer> {
    @Spec private CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--bootstrap-servers",
        required = true,
        description = "Kafka bootstrap servers, e.g. 127.0.0.1:9092.")
    private String bootstrapServers;

    @Option(
        names = "--replication",
        description = "Replication factor; default: the broker's default.replication.factor.")
    private Short replication;

    @Option(
        names = "--config",
        paramLabel = "FILE",
        description = "Client settings in isowatch run's format for a secured cluster (kafka.security.protocol,"
            + " kafka.sasl.*, kafka.ssl.*); the ISOWATCH_KAFKA_* environment applies too.")
    private java.nio.file.Path configFile;

    @Option(
        names = "--timeout-seconds",
        defaultValue = "30",
        description = "Timeout of each request to the cluster (default: ${DEFAULT-VALUE}).")
    private long timeoutSeconds;

    @Override
    public Integer call() throws Exception {
      final Topics topics =
          replication == null ? Topics.defaults() : Topics.defaults().withReplication(replication);
      final Map<String, Object> config = new java.util.HashMap<>();
      try {
        // Security (and any other admin setting) from the file and the ISOWATCH_KAFKA_* environment.
        config.putAll(ConfigSources.load(java.util.Optional.ofNullable(configFile), System.getenv(),
            Map.of(IsoWatchStreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)).adminProperties());
      } catch (final org.apache.kafka.common.config.ConfigException | java.io.IOException e) {
        spec.commandLine().getErr().println("topics: invalid client settings: " + e.getMessage());
        return EXIT_ERROR;
      }
      config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
      config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) (timeoutSeconds * 1000));
      // The client refuses an API timeout below the request timeout: keep them equal.
      config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) (timeoutSeconds * 1000));
      final List<TopicReport> reports;
      try (Admin admin = Admin.create(config)) {
        reports = new TopicAdmin(admin, Duration.ofSeconds(timeoutSeconds)).ensure(topics.all());
      } catch (final org.apache.kafka.common.KafkaException | java.util.concurrent.ExecutionException
          | java.util.concurrent.TimeoutException e) {
        // An unreachable or refusing cluster is an operational error, not a bug: one line, exit 2.
        spec.commandLine().getErr().println("topics: cannot create topics on " + bootstrapServers + ": " + e);
        return EXIT_ERROR;
      }
      final PrintWriter out = spec.commandLine().getOut();
      for (final TopicReport r : reports) {
        out.println(r.topic() + "\t" + r.outcome() + (r.ok() ? "" : "\t" + String.join("; ", r.problems())));
      }
      out.flush();
      return reports.stream().allMatch(TopicReport::ok) ? EXIT_OK : EXIT_MISMATCH;
    }
  }
}
