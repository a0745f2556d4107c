package io.isowatch.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.testkit.ResultFixtures;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DotWriterTest {
  @Test
  void shouldDrawTransactionsAndColouredCycleEdgesWhenRenderingAnAnomaly() {
    // Given
    final Anomaly a = ResultFixtures.lostUpdate().anomalies().get(0);

    // When
    final String dot = DotWriter.render(1, a);

    // Then
    assertEquals(String.join("\n",
        "digraph \"anomaly-001\" {",
        "  graph [label=\"LostUpdate (G-single) violates SSER, SER, SI\\l\\lLet:\\l  T1 = s1-3\\l  T2 = s2-7\\lThen:\\l"
            + "  - T1 < T2, because T1 read x=0 and T2 \\\"overwrote\\\" it;\\l"
            + "  - T2 < T1, because T1 overwrote x=2 written by T2 \\\\ twice;\\l  - a contradiction.\\l\","
            + " labelloc=t, labeljust=l, fontname=\"Helvetica\"];",
        "  node [shape=box, style=rounded, fontname=\"Courier\"];",
        "  edge [fontname=\"Helvetica\"];",
        "  \"s1-3\" [label=\"s1-3\\n[r(x,0), w(x,1)]  @10..20\"];",
        "  \"s2-7\" [label=\"s2-7\\n[r(x,0), w(x,2)]  aborted\"];",
        "  \"s1-3\" -> \"s2-7\" [label=\"RW x=0\", color=\"#e07b00\", fontcolor=\"#e07b00\", style=dashed];",
        "  \"s2-7\" -> \"s1-3\" [label=\"WW x=2\", color=\"#c62828\", fontcolor=\"#c62828\"];",
        "}",
        ""), dot);
  }

  @Test
  void shouldEscapeQuotesBackslashesAndLineBreaksWhenTextIsHostile() {
    // Given
    final String hostile = "a \"b\" \\ c\r\nd";

    // When
    final String centred = DotWriter.escape(hostile, "\\n");
    final String left = DotWriter.escape(hostile, "\\l");

    // Then
    assertEquals("a \\\"b\\\" \\\\ c\\nd", centred);
    assertEquals("a \\\"b\\\" \\\\ c\\ld", left);
  }

  @Test
  void shouldWriteOneNumberedFilePerAnomalyWhenGivenADirectory(@TempDir final Path tmp) throws Exception {
    // Given
    final List<Anomaly> anomalies = List.of(
        ResultFixtures.lostUpdate().anomalies().get(0), ResultFixtures.truncated(1, 1).anomalies().get(0));
    final Path dir = tmp.resolve("graphs/nested");

    // When
    final List<Path> files = DotWriter.write(anomalies, dir);

    // Then
    assertEquals(List.of(dir.resolve("anomaly-001-LostUpdate.dot"), dir.resolve("anomaly-002-G1a.dot")), files);
    assertEquals(DotWriter.render(1, anomalies.get(0)), Files.readString(files.get(0)));
    assertTrue(Files.readString(files.get(1)).startsWith("digraph \"anomaly-002\" {\n"));
  }

  @Test
  void shouldMakeTheNameFileSafeWhenItHasSlashesOrSpaces() {
    // Given
    final Anomaly a = ResultFixtures.lostUpdate().anomalies().get(0);
    final Anomaly odd = new Anomaly("G2-item", "Write Skew/x", a.violates(), a.transactions(), a.cycle(), "");

    // When
    final String name = DotWriter.fileName(12, odd);

    // Then
    assertEquals("anomaly-012-Write_Skew_x.dot", name);
  }

  @Test
  void shouldBeAcceptedByGraphvizWhenDotIsInstalled(@TempDir final Path tmp) throws Exception {
    // Given
    final Optional<Path> dot = onPath("dot");
    assumeTrue(dot.isPresent(), "Graphviz 'dot' is not on PATH (apt-get install graphviz): DOT syntax not validated");
    final List<Path> files = DotWriter.write(List.of(ResultFixtures.lostUpdate().anomalies().get(0)), tmp);

    // When
    final Process p = new ProcessBuilder(dot.get().toString(), "-Tsvg", "-o", tmp.resolve("a.svg").toString(),
        files.get(0).toString()).redirectErrorStream(true).start();
    final boolean finished = p.waitFor(30, TimeUnit.SECONDS);
    final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    // Then
    assertTrue(finished, "dot did not finish in 30 s");
    assertEquals(0, p.exitValue(), output);
    assertEquals("", output, "dot warned");
    final String svg = Files.readString(tmp.resolve("a.svg"));
    assertTrue(svg.contains(">Let:<"), svg);
    assertTrue(svg.contains("RW x=0"), svg);
  }

  private static Optional<Path> onPath(final String exe) {
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .filter(d -> !d.isEmpty())
        .map(d -> Path.of(d, exe))
        .filter(Files::isExecutable)
        .findFirst();
  }
}
