package io.isowatch.cli.bench;

import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.ListAppendHistoryGenerator;
import io.isowatch.core.gen.RegisterHistoryGenerator;
import java.nio.file.Path;

/** Where the benchmark's history comes from. */
public sealed interface HistorySource {
  /** Generated in memory. */
  record Generated(GeneratorConfig config) implements HistorySource {}

  /** Generated in memory by the rw-register workload (blind writes). */
  record GeneratedRegister(RegisterHistoryGenerator.Config config) implements HistorySource {}

  /** Generated in memory by Elle's list-append workload. */
  record GeneratedListAppend(ListAppendHistoryGenerator.Config config) implements HistorySource {}

  /** Parsed from a file; parsing is timed as a step of its own. */
  record File(Path path, HistoryFormat format) implements HistorySource {}
}
