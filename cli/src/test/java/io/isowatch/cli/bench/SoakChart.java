package io.isowatch.cli.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.Function;
import javax.imageio.ImageIO;

/**
 * The soak's chart as a PNG (Java2D and ImageIO, no plotting library): over committed
 * transactions, the checker's memory and disk in MiB (upper panel) and the transactions it stores
 * and retains (middle panel), and when the checker serves any, its {@code isowatch_retired_*}
 * series: sizes in the upper panel, counts in the middle one, ratios in a third panel. A flat line
 * is what segmentation promises; a rising one is growth. Series without any value (a metric this
 * build does not serve) are left out.
 */
final class SoakChart {
  private static final int WIDTH = 1000;
  private static final int PANEL_HEIGHT = 320;
  private static final int LEFT = 90;
  private static final int RIGHT = 230;
  private static final int TOP = 40;
  private static final int GAP = 60;
  private static final double MIB = 1024.0 * 1024.0;
  private static final Color[] COLORS = {
    new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd), new Color(0xff7f0e),
    new Color(0x8c564b), new Color(0x17becf)};

  private record Series(String label, Function<SoakSample, OptionalDouble> value) {}

  private SoakChart() {}

  static void write(final List<SoakSample> samples, final String title, final Path png) throws IOException {
    final java.util.Set<String> retired = new java.util.TreeSet<>();
    samples.forEach(s -> s.metrics().keySet().stream().filter(k -> k.startsWith("isowatch_retired_"))
        .forEach(retired::add));
    final List<Series> sizes = new ArrayList<>();
    final List<Series> counts = new ArrayList<>();
    final List<Series> ratios = new ArrayList<>();
    for (final String r : retired) {
      final String label = r.substring("isowatch_".length());
      if (r.contains("ratio")) {
        ratios.add(new Series(label, s -> s.metrics().getOrDefault(r, OptionalDouble.empty())));
      } else if (r.contains("bytes")) {
        sizes.add(new Series(label, s -> scaled(s.metrics().getOrDefault(r, OptionalDouble.empty()), MIB)));
      } else {
        counts.add(new Series(label, s -> s.metrics().getOrDefault(r, OptionalDouble.empty())));
      }
    }
    final int panels = ratios.isEmpty() ? 2 : 3;
    final BufferedImage img = new BufferedImage(WIDTH, TOP + panels * PANEL_HEIGHT + (panels - 1) * GAP + 50,
        BufferedImage.TYPE_INT_RGB);
    final Graphics2D g = img.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, img.getWidth(), img.getHeight());
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
      g.drawString(title, LEFT, 22);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      final List<Series> upper = new ArrayList<>(List.of(
          new Series("checker RSS", s -> asDouble(s.rssKib().isPresent(), s.rssKib().orElse(0) / 1024.0)),
          new Series("heap used", s -> scaled(s.heapUsedBytes(), MIB)),
          new Series("state dir (disk)", s -> asDouble(s.stateDirBytes().isPresent(),
              s.stateDirBytes().orElse(0) / MIB)),
          new Series("txn changelog (broker)", s -> asDouble(s.transactionsChangelogBytes().isPresent(),
              s.transactionsChangelogBytes().orElse(0) / MIB)),
          new Series("ckpt changelog (broker)", s -> asDouble(s.checkpointsChangelogBytes().isPresent(),
              s.checkpointsChangelogBytes().orElse(0) / MIB)),
          new Series("checkpoint", s -> scaled(s.metrics().getOrDefault("isowatch_checkpoint_bytes",
              OptionalDouble.empty()), MIB))));
      upper.addAll(sizes);
      panel(g, samples, TOP, "MiB", upper);
      final List<Series> middle = new ArrayList<>(List.of(
          new Series("stored inputs (state txns)", s -> s.metrics().get("isowatch_state_transactions")),
          new Series("retained by the engine", s -> s.metrics().get("isowatch_retained_transactions"))));
      middle.addAll(counts);
      panel(g, samples, TOP + PANEL_HEIGHT + GAP, "transactions", middle);
      if (!ratios.isEmpty()) {
        panel(g, samples, TOP + 2 * (PANEL_HEIGHT + GAP), "ratio", ratios);
      }
      g.drawString("committed transactions", LEFT + (WIDTH - LEFT - RIGHT) / 2 - 60, img.getHeight() - 12);
    } finally {
      g.dispose();
    }
    ImageIO.write(img, "png", png.toFile());
  }

  private static void panel(final Graphics2D g, final List<SoakSample> samples, final int top, final String unit,
      final List<Series> all) {
    final int plotWidth = WIDTH - LEFT - RIGHT;
    final int plotHeight = PANEL_HEIGHT - 30;
    final List<Series> series = new ArrayList<>();
    double maxY = 0;
    for (final Series s : all) {
      final double m = samples.stream().map(s.value()).filter(OptionalDouble::isPresent)
          .mapToDouble(OptionalDouble::getAsDouble).max().orElse(-1);
      if (m >= 0) {
        series.add(s);
        maxY = Math.max(maxY, m);
      }
    }
    final double yTop = niceCeiling(maxY);
    final double xTop = niceCeiling(samples.stream().mapToLong(SoakSample::committed).max().orElse(1));
    g.setColor(Color.BLACK);
    g.setStroke(new BasicStroke(1f));
    g.drawRect(LEFT, top, plotWidth, plotHeight);
    g.drawString(unit, 10, top - 10);
    for (int i = 0; i <= 4; i++) {
      final int y = top + plotHeight - i * plotHeight / 4;
      final int x = LEFT + i * plotWidth / 4;
      g.setColor(new Color(0xdddddd));
      g.drawLine(LEFT + 1, y, LEFT + plotWidth - 1, y);
      g.setColor(Color.BLACK);
      g.drawString(label(yTop * i / 4), 10, y + 4);
      g.drawString(label(xTop * i / 4), x - 15, top + plotHeight + 16);
    }
    for (int i = 0; i < series.size(); i++) {
      final Series s = series.get(i);
      g.setColor(COLORS[i % COLORS.length]);
      g.setStroke(new BasicStroke(2f));
      int px = -1;
      int py = -1;
      for (final SoakSample sample : samples) {
        final OptionalDouble v = s.value().apply(sample);
        if (v.isEmpty()) {
          continue;
        }
        final int x = LEFT + (int) Math.round(sample.committed() / xTop * plotWidth);
        final int y = top + plotHeight - (int) Math.round(v.getAsDouble() / yTop * plotHeight);
        if (px >= 0) {
          g.drawLine(px, py, x, y);
        }
        g.fillOval(x - 3, y - 3, 6, 6);
        px = x;
        py = y;
      }
      g.fillRect(LEFT + plotWidth + 15, top + 10 + i * 20, 14, 4);
      g.setColor(Color.BLACK);
      g.drawString(s.label(), LEFT + plotWidth + 35, top + 16 + i * 20);
    }
  }

  /** Three significant digits without trailing zeros: 75K, not 75.0K. */
  private static String short3(final double v) {
    return new BigDecimal(String.format(Locale.ROOT, "%.3g", v)).stripTrailingZeros().toPlainString();
  }

  private static OptionalDouble asDouble(final boolean present, final double v) {
    return present ? OptionalDouble.of(v) : OptionalDouble.empty();
  }

  private static OptionalDouble scaled(final OptionalDouble v, final double divisor) {
    return v.isPresent() ? OptionalDouble.of(v.getAsDouble() / divisor) : OptionalDouble.empty();
  }

  /** The smallest of 1, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6, 8 × 10^k at or above {@code v}: quarters stay round. */
  static double niceCeiling(final double v) {
    if (v <= 0) {
      return 1;
    }
    final double p = Math.pow(10, Math.floor(Math.log10(v)));
    for (final double m : new double[] {1, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6, 8, 10}) {
      if (m * p >= v) {
        return m * p;
      }
    }
    return 10 * p;
  }

  private static String label(final double v) {
    if (v == 0) {
      return "0";
    }
    if (v >= 1e6) {
      return short3(v / 1e6) + "M";
    }
    if (v >= 1e4) {
      return short3(v / 1e3) + "K";
    }
    return v >= 10 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.3g", v);
  }
}
