package io.isowatch.core.report;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.history.Transaction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes each anomaly as a Graphviz DOT graph ({@code isowatch check --dot DIR}), one file per
 * anomaly named {@code anomaly-001-LostUpdate.dot}, numbered as in the text report.
 *
 * <p>Transactions are box nodes labelled with their id and raw ops; cycle edges are labelled
 * {@code WR x=5} and coloured by kind (WR blue, WW red, RW orange dashed, SO grey, RT green dotted);
 * the headline and the engine's explanation form the graph label. Render with {@code dot -Tsvg}.
 */
public final class DotWriter {
  private DotWriter() {}

  /** Writes one file per anomaly into {@code dir} (created if needed); returns them in order. */
  public static List<Path> write(final List<Anomaly> anomalies, final Path dir) throws IOException {
    Files.createDirectories(dir);
    final List<Path> files = new ArrayList<>();
    for (int i = 0; i < anomalies.size(); i++) {
      final Anomaly a = anomalies.get(i);
      final Path file = dir.resolve(fileName(i + 1, a));
      Files.writeString(file, render(i + 1, a), StandardCharsets.UTF_8);
      files.add(file);
    }
    return files;
  }

  /** {@code anomaly-001-LostUpdate.dot}: 1-based index, display name made file-safe. */
  public static String fileName(final int index, final Anomaly a) {
    return String.format(Locale.ROOT, "anomaly-%03d-%s.dot", index, a.displayName().replaceAll("[^A-Za-z0-9_.-]", "_"));
  }

  /** The DOT text of one anomaly. */
  public static String render(final int index, final Anomaly a) {
    final StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "digraph \"anomaly-%03d\" {", index)).append('\n');
    final String caption = Notation.headline(a) + (a.explanation() == null ? "" : "\n\n" + a.explanation().strip());
    // \l ends every caption line left-justified, which keeps the explanation's indentation readable.
    sb.append("  graph [label=\"").append(escape(caption, "\\l")).append("\\l\", labelloc=t, labeljust=l, fontname=\"Helvetica\"];\n");
    sb.append("  node [shape=box, style=rounded, fontname=\"Courier\"];\n");
    sb.append("  edge [fontname=\"Helvetica\"];\n");
    for (final Transaction t : a.transactions()) {
      final String label = t.id() + "\n" + t.ops() + Notation.statusAndTimes(t);
      sb.append("  ").append(quote(t.id())).append(" [label=\"").append(escape(label, "\\n")).append("\"];\n");
    }
    for (final Edge e : a.cycle()) {
      final String color = color(e.kind());
      sb.append("  ").append(quote(e.from())).append(" -> ").append(quote(e.to()))
          .append(" [label=\"").append(escape(Notation.spacedLabel(e), "\\n")).append('"')
          .append(", color=\"").append(color).append("\", fontcolor=\"").append(color).append('"')
          .append(style(e.kind())).append("];\n");
    }
    sb.append("}\n");
    return sb.toString();
  }

  private static String color(final EdgeKind kind) {
    return switch (kind) {
      case WR -> "#1f6fd1";
      case WW -> "#c62828";
      case RW -> "#e07b00";
      case SO -> "#616161";
      case RT -> "#2e7d32";
    };
  }

  private static String style(final EdgeKind kind) {
    return switch (kind) {
      case RW -> ", style=dashed";
      case RT -> ", style=dotted";
      default -> "";
    };
  }

  private static String quote(final String id) {
    return "\"" + escape(id, "\\n") + "\"";
  }

  /**
   * Makes {@code s} safe inside a DOT double-quoted string: backslashes and quotes are escaped, and
   * each line break becomes {@code lineBreak} ({@code \n} centred, {@code \l} left-justified).
   */
  static String escape(final String s, final String lineBreak) {
    final StringBuilder sb = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      final char c = s.charAt(i);
      switch (c) {
        case '\\' -> sb.append("\\\\");
        case '"' -> sb.append("\\\"");
        case '\n' -> sb.append(lineBreak);
        case '\r' -> { } // dropped: a CRLF becomes one break
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }
}
