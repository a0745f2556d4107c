package io.isowatch.streams.ops;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.streams.ConfigFileOption;
import io.isowatch.streams.IsoWatchStreamsConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code isowatch dlq}: the dead-letter topic's tools; {@code replay} is the only one. */
@Command(
    name = "dlq",
    description = "Dead-letter topic tools.",
    subcommands = DlqCommand.Replay.class)
public final class DlqCommand implements Runnable {
  @Spec private CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing subcommand (replay)");
  }

  /** {@code isowatch dlq replay}: {@link DlqReplay} from the command line. */
  @Command(
      name = "replay",
      sortOptions = false,
      description = "Re-publish the raw key and value of every dead letter on isowatch.dlq.v1 (from "
          + "--from-offset to the current end) to its source topic, once the cause is fixed. Replaying "
          + "a letter twice does no harm: the checker ignores transactions it has seen. One line per "
          + "letter on stdout, then a summary.",
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {
        "0:every selected letter was replayed (or, with --dry-run, listed)",
        "1:a send failed",
        "2:invalid configuration or options, or the cluster could not be reached"
      })
  public static final class Replay implements Callable<Integer> {
    @Spec private CommandLine.Model.CommandSpec spec;

    @Mixin private ConfigFileOption configFile;

    @Option(names = "--dry-run", description = "List what would be replayed; publish nothing.")
    private boolean dryRun;

    @Option(names = "--from-offset", paramLabel = "N", defaultValue = "0",
        description = "First DLQ offset to replay (the summary prints where to continue) (default: ${DEFAULT-VALUE}).")
    private long fromOffset;

    @Option(names = "--to", paramLabel = "TOPIC", description = "Publish to TOPIC instead of each letter's source topic.")
    private String to;

    @Option(names = "--error", paramLabel = "TEXT", description = "Only letters whose error class contains TEXT.")
    private String error;

    @Override
    public Integer call() throws InterruptedException {
      final PrintWriter out = spec.commandLine().getOut();
      final PrintWriter err = spec.commandLine().getErr();
      if (fromOffset < 0) {
        throw new ParameterException(spec.commandLine(), "--from-offset must be >= 0");
      }
      final IsoWatchStreamsConfig config;
      try {
        config = configFile.load(Map.of());
      } catch (final ConfigException | IOException e) {
        return fail(err, 2, "invalid configuration: " + e.getMessage());
      }
      final String dlq = config.topics().deadLetters().name();
      final DlqReplay replay = new DlqReplay(config.clientProperties("consumer."), config.clientProperties("producer."),
          new AvroSerdes(config.avroSerdeConfig()).valueSerde(DeadLetter.class).deserializer());
      try {
        final DlqReplay.Summary s = replay.replay(dlq, fromOffset, Optional.ofNullable(to), Optional.ofNullable(error),
            dryRun, r -> out.println(line(r)));
        out.println((dryRun ? "would replay " : "replayed ") + s.replayed() + " dead letter(s)"
            + "; skipped " + s.skipped() + " without value; " + s.unreadable() + " unreadable"
            + "; next --from-offset " + s.nextOffsets().values().stream().mapToLong(Long::longValue).max().orElse(fromOffset));
        out.flush();
        return 0;
      } catch (final ExecutionException e) {
        out.flush();
        return fail(err, 1, "a send failed: " + e.getCause());
      } catch (final KafkaException e) {
        out.flush();
        return fail(err, 2, "cannot read " + dlq + " at "
            + config.getString(IsoWatchStreamsConfig.BOOTSTRAP_SERVERS_CONFIG) + ": " + e);
      }
    }

    private static String line(final DlqReplay.Replayed r) {
      final String where = r.dlqPartition() + "/" + r.dlqOffset();
      if (r.letter() == null) {
        return where + " UNREADABLE " + r.detail();
      }
      final DeadLetter l = r.letter();
      return where + " " + r.status() + " " + l.getSourceTopic() + "/" + l.getSourcePartition() + "/"
          + l.getSourceOffset() + " -> " + r.target() + " error=" + l.getErrorClass()
          + (l.getErrorMessage() == null ? "" : ": " + l.getErrorMessage());
    }

    private static int fail(final PrintWriter err, final int code, final String message) {
      err.println("isowatch dlq replay: " + message);
      err.flush();
      return code;
    }
  }
}
