package io.isowatch.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A soak row as Markdown and CSV, and the chart drawn from rows, with figures missing or not. */
class SoakSampleTest {
  @TempDir Path dir;

  private static SoakSample sample(final long committed, final boolean withCheckpoints) {
    final Map<String, OptionalDouble> metrics = new HashMap<>();
    SoakSample.METRICS.forEach(m -> metrics.put(m, OptionalDouble.empty()));
    metrics.put("isowatch_state_transactions", OptionalDouble.of(committed));
    metrics.put("isowatch_retained_transactions", OptionalDouble.of(150_000));
    metrics.put("isowatch_prune_seconds_sum", OptionalDouble.of(2.5));
    metrics.put("isowatch_prune_seconds_count", OptionalDouble.of(3));
    return new SoakSample(30.0, committed + 1_000, committed, 5_000.0, OptionalLong.of(512 * 1024),
        OptionalDouble.of(300.0 * 1024 * 1024), OptionalLong.of(64L * 1024 * 1024), OptionalLong.of(1024),
        OptionalLong.of(2048), withCheckpoints ? OptionalLong.of(4096) : OptionalLong.empty(), metrics);
  }

  @Test
  void shouldPrintNotAvailableInMarkdownAndLeaveTheCsvFieldEmptyWhenAFigureIsMissing() {
    // Given:
    final SoakSample s = sample(150_000, false);

    // When:
    final String md = s.markdownRow();
    final String csv = s.csvRow();

    // Then:
    assertEquals("| 30 | 151,000 | 150,000 | 5,000 | 512 | 300.0 | 64.0 | 0.0 | 0.0 | n/a | 150,000 | 150,000 | n/a"
        + " | n/a | n/a | n/a | 2.5 / 3 |", md);
    assertEquals("30.0,151000,150000,5000.0,524288,314572800,67108864,1024,2048,,150000,150000,,,,,2.5,3", csv);
  }

  @Test
  void shouldAddExtraColumnsWithEmptyFieldsWhereARowLacksThem() {
    // Given: a retired-versions series one row has and the other lacks
    final SoakSample with = sample(10, true);
    with.metrics().put("isowatch_retired_versions{filter=\"overwritten\"}", OptionalDouble.of(1234));
    final SoakSample without = sample(20, true);
    final List<String> extras = List.of("isowatch_retired_versions{filter=\"overwritten\"}");

    // When:
    final String header = SoakSample.csvHeader(extras);

    // Then:
    assertTrue(header.endsWith(",\"isowatch_retired_versions{filter=\"\"overwritten\"\"}\""), header);
    assertTrue(with.csvRow(extras).endsWith(",1234"), with.csvRow(extras));
    assertTrue(without.csvRow(extras).endsWith(","), without.csvRow(extras));
    assertEquals(SoakSample.csvHeader().split(",", -1).length + 1, without.csvRow(extras).split(",", -1).length);
  }

  @Test
  void shouldHaveAsManyCellsAsHeadersInBothFormats() {
    // Given:
    final SoakSample s = sample(10, true);

    // When: / Then:
    assertEquals(SoakSample.markdownHeader().lines().findFirst().orElseThrow().split("\\|").length,
        s.markdownRow().split("\\|").length);
    assertEquals(SoakSample.csvHeader().split(",", -1).length, s.csvRow().split(",", -1).length);
  }

  @Test
  void shouldWriteAReadablePngWhenSomeSeriesHaveNoValue() throws Exception {
    // Given:
    final List<SoakSample> rows = List.of(sample(0, false), sample(100_000, false), sample(200_000, false));
    final Path png = dir.resolve("soak.png");

    // When:
    SoakChart.write(rows, "soak on", png);

    // Then:
    final BufferedImage img = ImageIO.read(png.toFile());
    assertEquals(1000, img.getWidth());
    assertEquals(790, img.getHeight());
    assertTrue(Files.size(png) > 1_000, "a chart with lines, not a blank image");
  }

  @Test
  void shouldAddAThirdPanelWhenTheCheckerServesARetiredRatio() throws Exception {
    // Given:
    final List<SoakSample> rows = List.of(sample(0, true), sample(100_000, true));
    rows.forEach(r -> r.metrics().put("isowatch_retired_false_positive_ratio", OptionalDouble.of(1e-4)));
    final Path png = dir.resolve("retired.png");

    // When:
    SoakChart.write(rows, "soak on", png);

    // Then: a third panel of 320 pixels and its gap of 60 below the two (790 pixels high)
    assertEquals(1170, ImageIO.read(png.toFile()).getHeight());
  }

  @Test
  void shouldRoundAxisTopsUpToAStepWhoseQuartersAreRound() {
    assertEquals(1.0, SoakChart.niceCeiling(0));
    assertEquals(160_000.0, SoakChart.niceCeiling(150_000));
    assertEquals(240.0, SoakChart.niceCeiling(201));
    assertEquals(5e7, SoakChart.niceCeiling(5e7));
  }
}
