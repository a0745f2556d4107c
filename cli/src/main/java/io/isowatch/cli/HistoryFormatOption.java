package io.isowatch.cli;

import io.isowatch.core.format.HistoryFormat;
import picocli.CommandLine.Option;

/** {@code --format}, shared by the commands that read a history file as a picocli {@code @Mixin}. */
public final class HistoryFormatOption {
  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "auto",
      converter = Converters.FormatConverter.class,
      description = "Format of the history file: auto|jsonl|text|elle|aion (default: ${DEFAULT-VALUE}, sniffs the"
          + " content).")
  private HistoryFormat format;

  HistoryFormat format() {
    return format;
  }
}
