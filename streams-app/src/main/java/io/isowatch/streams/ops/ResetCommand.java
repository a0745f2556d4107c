package io.isowatch.streams.ops;

import io.isowatch.streams.ConfigFileOption;
import io.isowatch.streams.IsoWatchStreamsConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code isowatch reset}: makes the checker start over from the beginning of its input with empty
 * state ({@link AppReset}). Without {@code --yes} it only prints what it would delete. It refuses
 * while a checker instance is running.
 */
@Command(
    name = "reset",
    sortOptions = false,
    description = "Reset the streaming checker: delete its consumer group (input offsets), changelog topics "
        + "and local state, so that it re-reads its whole input. Anomalies are then published again, "
        + "with the same uniqueId. Stop every checker instance first. Without --yes, prints what it "
        + "would delete and changes nothing.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:reset done",
      "1:refused: no --yes, or a checker instance is still running",
      "2:invalid configuration, or the cluster could not be reached"
    })
public final class ResetCommand implements Callable<Integer> {
  static final int EXIT_DONE = 0;
  static final int EXIT_REFUSED = 1;
  static final int EXIT_INVALID = 2;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @Spec private CommandLine.Model.CommandSpec spec;

  @Mixin private ConfigFileOption configFile;

  @Option(names = "--yes", description = "Really reset (otherwise only print what would be deleted).")
  private boolean yes;

  @Override
  public Integer call() throws InterruptedException {
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    final IsoWatchStreamsConfig config;
    try {
      config = configFile.load(Map.of());
    } catch (final ConfigException | IOException e) {
      return fail(err, EXIT_INVALID, "invalid configuration: " + e.getMessage());
    }
    final String applicationId = config.getString(IsoWatchStreamsConfig.APPLICATION_ID_CONFIG);
    final Path stateDir = Path.of(config.getString(IsoWatchStreamsConfig.STATE_DIR_CONFIG));
    try (Admin admin = Admin.create(config.adminProperties())) {
      final AppReset reset = new AppReset(admin, TIMEOUT);
      final AppReset.Plan plan = reset.plan(applicationId, stateDir);
      print(plan, out);
      if (plan.running()) {
        return fail(err, EXIT_REFUSED, "refused: the checker is running (" + plan.activeMembers().size()
            + " member(s) in group " + applicationId + "); stop every instance first. Nothing changed.");
      }
      if (!yes) {
        return fail(err, EXIT_REFUSED, "nothing changed: this deletes the checker's state and makes it re-read"
            + " its whole input; run again with --yes to reset.");
      }
      reset.execute(plan);
      out.println("Reset done: the next `isowatch run` with application.id=" + applicationId
          + " re-reads its input from the earliest offset. Wipe state.dir on every other host that ran it.");
      out.flush();
      return EXIT_DONE;
    } catch (final AppReset.GroupActiveException e) {
      return fail(err, EXIT_REFUSED, "refused: " + e.getMessage());
    } catch (final ExecutionException | TimeoutException | KafkaException e) {
      return fail(err, EXIT_INVALID, "cannot reset at " + config.getString(IsoWatchStreamsConfig.BOOTSTRAP_SERVERS_CONFIG)
          + ": " + (e instanceof ExecutionException ? e.getCause() : e));
    } catch (final IOException e) {
      return fail(err, EXIT_INVALID, "cannot delete the local state: " + e.getMessage());
    }
  }

  private static void print(final AppReset.Plan plan, final PrintWriter out) {
    out.println("application.id: " + plan.applicationId());
    if (plan.committedOffsets().isEmpty()) {
      out.println("consumer group: no committed offsets");
    } else {
      out.println("consumer group " + plan.applicationId() + " (deleted: its input is re-read from the earliest offset):");
      plan.committedOffsets().forEach((tp, om) -> out.println("  " + tp + " committed offset " + om.offset()));
    }
    out.println("internal topics (deleted): " + (plan.internalTopics().isEmpty() ? "none"
        : String.join(", ", plan.internalTopics())));
    out.println("local state (deleted): " + (plan.localState() == null ? "none" : plan.localState()));
    plan.activeMembers().forEach(m -> out.println("active member: " + m));
    out.flush();
  }

  private static int fail(final PrintWriter err, final int code, final String message) {
    err.println("isowatch reset: " + message);
    err.flush();
    return code;
  }
}
