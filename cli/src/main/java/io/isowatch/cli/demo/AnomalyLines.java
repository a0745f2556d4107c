package io.isowatch.cli.demo;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyIds;
import io.isowatch.schemas.AnomalyTransaction;
import io.isowatch.schemas.Level;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How the demo prints a published anomaly: a headline (time, tenant, name, violated levels,
 * detection latency), whether it breaks the tenant's promise, the first lines of its explanation
 * and the address of its page in the web UI. Pure, so that it is tested without a terminal.
 */
public final class AnomalyLines {
  /** Explanation lines shown; the rest is on the UI page. */
  static final int EXPLANATION_LINES = 12;
  private static final DateTimeFormatter CLOCK =
      DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT).withZone(ZoneId.systemDefault());

  private final Map<String, DemoTenant> tenants;
  private final String uiBase;

  /**
   * @param tenants the demo's tenants by name (an anomaly of another tenant is printed without a promise)
   * @param uiBase the UI's address, e.g. {@code http://127.0.0.1:9464}; null when the UI is off
   */
  public AnomalyLines(final Map<String, DemoTenant> tenants, final String uiBase) {
    this.tenants = Map.copyOf(tenants);
    this.uiBase = uiBase;
  }

  /** The lines for one anomaly, without line terminators. */
  public List<String> format(final Anomaly a) {
    final List<String> lines = new ArrayList<>();
    final List<String> violated = a.getViolates().stream().map(Level::name).toList();
    final DemoTenant tenant = tenants.get(a.getTenant());
    final String verdict = tenant == null ? ""
        : tenant.broken(violated) ? "  BREAKS ITS PROMISE (" + tenant.promiseLabel() + ")"
        : "  weaker than " + weakest(violated) + " but allowed by its promise (" + tenant.promiseLabel() + ")";
    lines.add(String.format(Locale.ROOT, "%s  %-12s %-22s violates %-12s %s%s",
        CLOCK.format(Instant.ofEpochMilli(a.getDetectedAtMicros() / 1_000)), a.getTenant(), title(a),
        violated.isEmpty() ? "-" : String.join(",", violated), latency(a), verdict));
    lines.add("    transactions: " + a.getTransactions().stream().map(AnomalyLines::txn)
        .collect(Collectors.joining(", ")));
    final String[] explanation = a.getExplanation().strip().split("\\R");
    for (int i = 0; i < Math.min(EXPLANATION_LINES, explanation.length); i++) {
      lines.add("    " + explanation[i].strip());
    }
    if (explanation.length > EXPLANATION_LINES) {
      lines.add("    … (" + (explanation.length - EXPLANATION_LINES) + " more lines on the anomaly's page)");
    }
    if (uiBase != null) {
      lines.add("    " + pageOf(uiBase, AnomalyIds.identity(a)));
    }
    return lines;
  }

  /** The web UI's page of an anomaly, by its {@link AnomalyIds#identity}. */
  public static String pageOf(final String uiBase, final String id) {
    return uiBase + "/anomaly.html?id=" + URLEncoder.encode(id, StandardCharsets.UTF_8);
  }

  private static String title(final Anomaly a) {
    return a.getName() == null || a.getName().equals(a.getType()) ? a.getType() : a.getName() + " (" + a.getType() + ")";
  }

  private static String latency(final Anomaly a) {
    final Long micros = a.getDetectionLatencyMicros();
    return micros == null ? "" : String.format(Locale.ROOT, "detected %.1f s after its last commit", micros / 1e6);
  }

  private static String txn(final AnomalyTransaction t) {
    return t.getTxn() + " (" + t.getSession() + ", " + t.getStatus().name().toLowerCase(Locale.ROOT) + ")";
  }

  /** The weakest level of those named: the X of "weaker than X but allowed". */
  private static String weakest(final List<String> violated) {
    return io.isowatch.core.check.Level.weakestFirst(violated.stream().map(io.isowatch.core.check.Level::valueOf)
        .toList()).stream().findFirst().map(Enum::name).orElse("-");
  }
}
