package io.isowatch.streams.ui;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyTransaction;
import io.isowatch.schemas.Edge;
import io.isowatch.schemas.EdgeKind;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders an anomaly's counterexample as a standalone SVG document, in Java, with no layout engine
 * at run time: transactions are boxes (id, session, operations) placed on a circle in cycle order,
 * the cycle's dependency edges are curved arrows coloured by kind and labelled with kind, key and
 * value ({@code WW x=2}). The same anomaly always gives the same bytes.
 *
 * <p>Every text comes from the record, so all of it is XML-escaped, and characters XML 1.0 cannot
 * carry become U+FFFD. Elements carry {@code data-} attributes (txn, from, to, kind, key, value) and
 * classes ({@code node}, {@code edge}, {@code edge-label}) for styling and tests.
 */
public final class SvgGraph {
  private static final int NODE_WIDTH = 172;
  private static final int HEADER_HEIGHT = 42;
  private static final int LINE_HEIGHT = 16;
  private static final int MAX_OPS_SHOWN = 6;
  private static final int MAX_TEXT = 22;
  private static final int MARGIN = 36;
  private static final int LEGEND_HEIGHT = 34;
  private static final double BOW = 38;
  private static final double BOW_STEP = 30;

  /** Colour and stroke style of each edge kind; RW (anti-dependency) dashed as in Adya's figures. */
  private static final Map<EdgeKind, String[]> STYLE = Map.of(
      EdgeKind.WW, new String[] {"#c62828", ""},
      EdgeKind.WR, new String[] {"#1565c0", ""},
      EdgeKind.RW, new String[] {"#e07a00", "7 4"},
      EdgeKind.SO, new String[] {"#546e7a", "2 3"},
      EdgeKind.RT, new String[] {"#6a1b9a", "2 3"});

  private SvgGraph() {}

  /** A node: a transaction placed at (x, y), its box's centre. */
  private record Node(String txn, AnomalyTransaction t, double x, double y, double height) {}

  /** The SVG document of the anomaly's graph. */
  public static String render(final Anomaly a) {
    final Map<String, Node> nodes = layout(a);
    final StringBuilder edges = new StringBuilder();
    final List<double[]> extents = new ArrayList<>();
    nodes.values().forEach(n -> {
      extents.add(new double[] {n.x() - NODE_WIDTH / 2.0, n.y() - n.height() / 2});
      extents.add(new double[] {n.x() + NODE_WIDTH / 2.0, n.y() + n.height() / 2});
    });
    final Map<String, Integer> parallel = new HashMap<>();
    final List<String> order = List.copyOf(nodes.keySet());
    for (final Edge e : a.getCycle()) {
      final Node from = nodes.get(e.getFrom());
      final Node to = nodes.get(e.getTo());
      final int rank = parallel.merge(e.getFrom() + "\u0000" + e.getTo(), 1, Integer::sum) - 1;
      edges.append(edge(e, from, to, bowSign(order, e, nodes), rank, extents));
    }
    double minX = Double.MAX_VALUE;
    double minY = Double.MAX_VALUE;
    double maxX = -Double.MAX_VALUE;
    double maxY = -Double.MAX_VALUE;
    for (final double[] p : extents) {
      minX = Math.min(minX, p[0]);
      minY = Math.min(minY, p[1]);
      maxX = Math.max(maxX, p[0]);
      maxY = Math.max(maxY, p[1]);
    }
    minX -= MARGIN;
    minY -= MARGIN;
    maxX += MARGIN;
    maxY += MARGIN + LEGEND_HEIGHT;
    final List<EdgeKind> kinds = a.getCycle().stream().map(Edge::getKind).distinct().sorted().toList();
    final double width = Math.max(maxX - minX, legendWidth(kinds) + 2 * MARGIN);
    final double height = maxY - minY;
    final StringBuilder svg = new StringBuilder(4096);
    svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"anomaly-graph\" role=\"img\"")
        .append(" viewBox=\"").append(num(minX)).append(' ').append(num(minY)).append(' ')
        .append(num(width)).append(' ').append(num(height)).append("\" width=\"").append(num(width))
        .append("\" height=\"").append(num(height)).append("\" font-family=\"system-ui, -apple-system, Segoe UI,")
        .append(" Roboto, Helvetica, Arial, sans-serif\" font-size=\"12\">\n");
    svg.append("<title>").append(esc(UiState.displayName(a) + " (" + a.getType() + ") in tenant "
        + a.getTenant())).append("</title>\n");
    svg.append(defs());
    svg.append("<g class=\"edges\">\n").append(edges).append("</g>\n");
    svg.append("<g class=\"nodes\">\n");
    nodes.values().forEach(n -> svg.append(node(n)));
    svg.append("</g>\n");
    if (!kinds.isEmpty()) {
      svg.append(legend(kinds, minX, maxY - MARGIN / 2.0 - LEGEND_HEIGHT / 2.0));
    }
    svg.append("</svg>\n");
    return svg.toString();
  }

  /** Transactions on a circle in cycle order, the first on the left; ids only in edges are added. */
  private static Map<String, Node> layout(final Anomaly a) {
    final LinkedHashMap<String, AnomalyTransaction> txns = new LinkedHashMap<>();
    a.getTransactions().forEach(t -> txns.putIfAbsent(t.getTxn(), t));
    for (final Edge e : a.getCycle()) {
      txns.putIfAbsent(e.getFrom(), null);
      txns.putIfAbsent(e.getTo(), null);
    }
    final int n = txns.size();
    final double tallest = txns.values().stream().mapToDouble(SvgGraph::nodeHeight).max().orElse(HEADER_HEIGHT);
    // Far enough apart that neighbouring boxes and the labels between them do not touch.
    final double radius = n <= 1 ? 0 : n == 2 ? 190 : Math.max(150, (NODE_WIDTH + 90) / (2 * Math.sin(Math.PI / n)) * 0.75
        + tallest / 4);
    final Map<String, Node> out = new LinkedHashMap<>();
    int i = 0;
    for (final Map.Entry<String, AnomalyTransaction> e : txns.entrySet()) {
      final double angle = Math.PI + 2 * Math.PI * i / Math.max(n, 1);
      out.put(e.getKey(), new Node(e.getKey(), e.getValue(), radius * Math.cos(angle),
          n == 2 ? 0 : radius * Math.sin(angle), nodeHeight(e.getValue())));
      i++;
    }
    return out;
  }

  private static double nodeHeight(final AnomalyTransaction t) {
    if (t == null) {
      return HEADER_HEIGHT;
    }
    final int ops = t.getOps().size();
    final int lines = ops > MAX_OPS_SHOWN ? MAX_OPS_SHOWN + 1 : ops;
    return HEADER_HEIGHT + 8 + lines * LINE_HEIGHT;
  }

  /**
   * Which side an edge bows to: edges to the next transaction of the cycle bow away from the
   * centre, the others towards it; between two transactions, each direction takes one side.
   */
  private static int bowSign(final List<String> order, final Edge e, final Map<String, Node> nodes) {
    final int from = order.indexOf(e.getFrom());
    final int to = order.indexOf(e.getTo());
    final int n = order.size();
    if (n <= 2) {
      // The perpendicular flips with the direction: the two directions already take opposite sides.
      return 1;
    }
    final boolean forward = Math.floorMod(to - from, n) == 1;
    final Node a = nodes.get(e.getFrom());
    final Node b = nodes.get(e.getTo());
    final double[] perp = perpendicular(a, b);
    final double midX = (a.x() + b.x()) / 2;
    final double midY = (a.y() + b.y()) / 2;
    final int outward = perp[0] * midX + perp[1] * midY >= 0 ? 1 : -1;
    return forward ? outward : -outward;
  }

  private static double[] perpendicular(final Node a, final Node b) {
    final double dx = b.x() - a.x();
    final double dy = b.y() - a.y();
    final double len = Math.max(Math.hypot(dx, dy), 1e-9);
    return new double[] {-dy / len, dx / len};
  }

  private static String edge(final Edge e, final Node from, final Node to, final int sign, final int rank,
      final List<double[]> extents) {
    final String kind = e.getKind().name();
    final String[] style = STYLE.get(e.getKind());
    final double cx;
    final double cy;
    final double sx;
    final double sy;
    final double ex;
    final double ey;
    if (from == to) {
      // A self-loop (never produced by the checker, rendered anyway): a loop above the box.
      sx = from.x() - 30;
      sy = from.y() - from.height() / 2;
      ex = from.x() + 30;
      ey = sy;
      cx = from.x();
      cy = sy - 90 - rank * BOW_STEP;
    } else {
      final double[] perp = perpendicular(from, to);
      final double chord = Math.hypot(to.x() - from.x(), to.y() - from.y());
      final double bow = sign * (Math.max(BOW, 0.22 * chord) + rank * BOW_STEP);
      cx = (from.x() + to.x()) / 2 + perp[0] * bow;
      cy = (from.y() + to.y()) / 2 + perp[1] * bow;
      final double[] s = boxExit(from, cx, cy);
      final double[] t = boxExit(to, cx, cy);
      sx = s[0];
      sy = s[1];
      ex = t[0];
      ey = t[1];
    }
    // The curve's midpoint (t = 1/2) carries the label.
    final double lx = 0.25 * sx + 0.5 * cx + 0.25 * ex;
    final double ly = 0.25 * sy + 0.5 * cy + 0.25 * ey;
    final String label = kind + (e.getKey() == null ? "" : " " + clip(e.getKey()) + "=" + e.getValue());
    final double labelWidth = label.length() * 7.0 + 12;
    extents.add(new double[] {lx - labelWidth / 2, ly - 12});
    extents.add(new double[] {lx + labelWidth / 2, ly + 12});
    final StringBuilder g = new StringBuilder();
    g.append("<g class=\"edge edge-").append(kind.toLowerCase(Locale.ROOT)).append("\" data-from=\"")
        .append(esc(e.getFrom())).append("\" data-to=\"").append(esc(e.getTo())).append("\" data-kind=\"")
        .append(kind).append('"');
    if (e.getKey() != null) {
      g.append(" data-key=\"").append(esc(e.getKey())).append('"');
    }
    if (e.getValue() != null) {
      g.append(" data-value=\"").append(e.getValue()).append('"');
    }
    g.append(">\n<title>").append(esc(e.getFrom() + " -" + kind
        + (e.getKey() == null ? "" : "(" + e.getKey() + "=" + e.getValue() + ")") + "-> " + e.getTo()
        + ": " + meaning(e.getKind()))).append("</title>\n");
    g.append("<path d=\"M").append(num(sx)).append(',').append(num(sy)).append(" Q").append(num(cx)).append(',')
        .append(num(cy)).append(' ').append(num(ex)).append(',').append(num(ey))
        .append("\" fill=\"none\" stroke=\"").append(style[0]).append("\" stroke-width=\"2\"");
    if (!style[1].isEmpty()) {
      g.append(" stroke-dasharray=\"").append(style[1]).append('"');
    }
    g.append(" marker-end=\"url(#arrow-").append(kind.toLowerCase(Locale.ROOT)).append(")\"/>\n");
    g.append("<rect x=\"").append(num(lx - labelWidth / 2)).append("\" y=\"").append(num(ly - 10))
        .append("\" width=\"").append(num(labelWidth)).append("\" height=\"20\" rx=\"10\" fill=\"#ffffff\"")
        .append(" stroke=\"").append(style[0]).append("\" stroke-width=\"1\"/>\n");
    g.append("<text class=\"edge-label\" x=\"").append(num(lx)).append("\" y=\"").append(num(ly + 4))
        .append("\" text-anchor=\"middle\" fill=\"").append(style[0])
        .append("\" font-weight=\"600\" font-family=\"ui-monospace, SFMono-Regular, Menlo, Consolas, monospace\">")
        .append(esc(label)).append("</text>\n</g>\n");
    return g.toString();
  }

  /** Where the ray from the box's centre towards (tx, ty) leaves the box, plus a small gap. */
  private static double[] boxExit(final Node n, final double tx, final double ty) {
    final double dx = tx - n.x();
    final double dy = ty - n.y();
    final double halfW = NODE_WIDTH / 2.0 + 4;
    final double halfH = n.height() / 2 + 4;
    final double scale = Math.min(dx == 0 ? Double.MAX_VALUE : halfW / Math.abs(dx),
        dy == 0 ? Double.MAX_VALUE : halfH / Math.abs(dy));
    return new double[] {n.x() + dx * scale, n.y() + dy * scale};
  }

  private static String node(final Node n) {
    final double left = n.x() - NODE_WIDTH / 2.0;
    final double top = n.y() - n.height() / 2;
    final AnomalyTransaction t = n.t();
    final StringBuilder g = new StringBuilder();
    g.append("<g class=\"node\" data-txn=\"").append(esc(n.txn())).append("\">\n");
    g.append("<title>").append(esc(t == null ? n.txn() : tooltip(t))).append("</title>\n");
    g.append("<rect x=\"").append(num(left)).append("\" y=\"").append(num(top)).append("\" width=\"")
        .append(NODE_WIDTH).append("\" height=\"").append(num(n.height()))
        .append("\" rx=\"8\" fill=\"#ffffff\" stroke=\"#37474f\" stroke-width=\"1.5\"/>\n");
    g.append("<rect x=\"").append(num(left)).append("\" y=\"").append(num(top)).append("\" width=\"")
        .append(NODE_WIDTH).append("\" height=\"").append(HEADER_HEIGHT)
        .append("\" rx=\"8\" fill=\"#eceff1\" stroke=\"none\"/>\n");
    g.append("<text class=\"node-id\" x=\"").append(num(n.x())).append("\" y=\"").append(num(top + 18))
        .append("\" text-anchor=\"middle\" font-weight=\"700\" font-size=\"13\" fill=\"#263238\">")
        .append(esc(clip(n.txn()))).append("</text>\n");
    if (t != null) {
      final String session = "session " + clip(t.getSession())
          + (t.getSeq() == null ? "" : " #" + t.getSeq()) + " · " + t.getStatus().name().toLowerCase(Locale.ROOT);
      g.append("<text class=\"node-session\" x=\"").append(num(n.x())).append("\" y=\"").append(num(top + 34))
          .append("\" text-anchor=\"middle\" font-size=\"11\" fill=\"#607d8b\">").append(esc(session))
          .append("</text>\n");
      final List<Op> ops = t.getOps();
      double y = top + HEADER_HEIGHT + 8 + 12;
      for (int i = 0; i < ops.size() && i < MAX_OPS_SHOWN; i++) {
        g.append("<text class=\"node-op\" x=\"").append(num(left + 12)).append("\" y=\"").append(num(y))
            .append("\" fill=\"#263238\" font-family=\"ui-monospace, SFMono-Regular, Menlo, Consolas, monospace\">")
            .append(esc(op(ops.get(i)))).append("</text>\n");
        y += LINE_HEIGHT;
      }
      if (ops.size() > MAX_OPS_SHOWN) {
        g.append("<text class=\"node-op-more\" x=\"").append(num(left + 12)).append("\" y=\"").append(num(y))
            .append("\" fill=\"#607d8b\" font-style=\"italic\">+").append(ops.size() - MAX_OPS_SHOWN)
            .append(" more</text>\n");
      }
    }
    g.append("</g>\n");
    return g.toString();
  }

  private static String defs() {
    final StringBuilder d = new StringBuilder("<defs>\n");
    for (final EdgeKind k : EdgeKind.values()) {
      d.append("<marker id=\"arrow-").append(k.name().toLowerCase(Locale.ROOT))
          .append("\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\"")
          .append(" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"")
          .append(STYLE.get(k)[0]).append("\"/></marker>\n");
    }
    return d.append("</defs>\n").toString();
  }

  private static double legendWidth(final List<EdgeKind> kinds) {
    return kinds.stream().mapToDouble(SvgGraph::legendItemWidth).sum();
  }

  private static double legendItemWidth(final EdgeKind k) {
    return 32 + (k.name().length() + 1 + meaning(k).length()) * 6.2 + 18;
  }

  private static String legend(final List<EdgeKind> kinds, final double left, final double y) {
    final StringBuilder g = new StringBuilder("<g class=\"legend\">\n");
    double x = left + MARGIN;
    for (final EdgeKind k : kinds) {
      final String[] style = STYLE.get(k);
      g.append("<line x1=\"").append(num(x)).append("\" y1=\"").append(num(y)).append("\" x2=\"").append(num(x + 26))
          .append("\" y2=\"").append(num(y)).append("\" stroke=\"").append(style[0]).append("\" stroke-width=\"2\"");
      if (!style[1].isEmpty()) {
        g.append(" stroke-dasharray=\"").append(style[1]).append('"');
      }
      g.append("/>\n<text x=\"").append(num(x + 32)).append("\" y=\"").append(num(y + 4))
          .append("\" fill=\"#455a64\" font-size=\"11\">").append(k.name()).append(' ').append(meaning(k))
          .append("</text>\n");
      x += legendItemWidth(k);
    }
    return g.append("</g>\n").toString();
  }

  private static String meaning(final EdgeKind k) {
    return switch (k) {
      case WW -> "next version";
      case WR -> "read from";
      case RW -> "anti-dependency";
      case SO -> "session order";
      case RT -> "real time";
    };
  }

  private static String tooltip(final AnomalyTransaction t) {
    final StringBuilder s = new StringBuilder(t.getTxn()).append(" [");
    for (int i = 0; i < t.getOps().size(); i++) {
      s.append(i == 0 ? "" : ", ").append(op(t.getOps().get(i)));
    }
    return s.append(']').toString();
  }

  /** {@code r(x,0)} / {@code w(x,1)}, the text report's notation. */
  static String op(final Op o) {
    return (o.getType() == OpType.READ ? "r(" : "w(") + clip(o.getKey()) + "," + o.getValue() + ")";
  }

  private static String clip(final String s) {
    return s.length() <= MAX_TEXT ? s : s.substring(0, MAX_TEXT - 1) + "…";
  }

  private static String num(final double d) {
    return String.format(Locale.ROOT, "%.1f", d);
  }

  /** XML text and attribute escaping; characters XML 1.0 cannot carry become U+FFFD. */
  static String esc(final String s) {
    final StringBuilder out = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      final char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> {
          if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
            out.append(c).append(s.charAt(++i));
          } else {
            final boolean legal = c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c <= 0xD7FF)
                || (c >= 0xE000 && c <= 0xFFFD);
            out.append(legal ? c : '\uFFFD');
          }
        }
      }
    }
    return out.toString();
  }
}
