package io.isowatch.streams.ui;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyIds;
import io.isowatch.schemas.AnomalyTransaction;
import io.isowatch.schemas.Edge;
import io.isowatch.schemas.Level;
import io.isowatch.schemas.LevelVerdict;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.streams.PromisedLevels;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read-only web UI and its JSON API, served on the checker's HTTP endpoint from a {@link
 * UiState}:
 *
 * <ul>
 *   <li>{@code /} the overview: tenants with per-level verdicts, throughput and detection-latency
 *       charts, and the live anomaly feed with filters; {@code /anomaly.html?id=…} one anomaly;
 *       {@code /static/…} their CSS and JS (no build step: plain files from the jar);
 *   <li>{@code GET /api/tenants}: every tenant, latest verdict, series;
 *   <li>{@code GET /api/anomalies?type=&level=&tenant=&limit=}: the feed, newest first, with the
 *       filter values available ({@code facets});
 *   <li>{@code GET /api/anomalies/{id}}: one anomaly with its cycle, transactions and explanation;
 *   <li>{@code GET /api/anomalies/{id}/graph.svg}: its graph ({@link SvgGraph}).
 * </ul>
 *
 * <p>Only GET and HEAD are answered (405 otherwise). Field names follow the Avro contract.
 */
public final class WebUi implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger(WebUi.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String STATIC = "/io/isowatch/streams/ui/static/";
  /** The files served, by path, with their content type: nothing else from the jar is reachable. */
  private static final Map<String, String> PAGES = Map.of(
      "/", "index.html",
      "/index.html", "index.html",
      "/anomaly.html", "anomaly.html",
      "/static/isowatch.css", "isowatch.css",
      "/static/common.js", "common.js",
      "/static/overview.js", "overview.js",
      "/static/anomaly.js", "anomaly.js");
  private static final int DEFAULT_LIMIT = 200;

  private final UiState state;
  private final PromiseView promises;
  private final Map<String, byte[]> resources = new HashMap<>();

  /** The UI of a checker that promises no tenant anything. */
  public WebUi(final UiState state) {
    this(state, PromisedLevels.none());
  }

  /**
   * The UI of a checker whose tenants are promised {@code promised}: each tenant card says whether
   * its promise is kept or broken and which violated levels are "weaker than X but allowed", and each
   * anomaly whether it breaks its tenant's promise.
   */
  public WebUi(final UiState state, final PromisedLevels promised) {
    this.state = state;
    this.promises = new PromiseView(promised);
    for (final String file : PAGES.values()) {
      try (InputStream in = WebUi.class.getResourceAsStream(STATIC + file)) {
        if (in == null) {
          throw new IllegalStateException("UI resource missing from the jar: " + file);
        }
        resources.put(file, in.readAllBytes());
      } catch (final IOException e) {
        throw new IllegalStateException("UI resource unreadable: " + file, e);
      }
    }
  }

  @Override
  public void handle(final HttpExchange exchange) throws IOException {
    try (exchange) {
      final String method = exchange.getRequestMethod();
      if (!"GET".equals(method) && !"HEAD".equals(method)) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      try {
        route(exchange);
      } catch (final RuntimeException e) {
        // A bug in a handler: log it without the query (it may hold the token) and answer 500.
        LOG.error("Web UI request failed path=[{}]", exchange.getRequestURI().getRawPath(), e);
        exchange.sendResponseHeaders(500, -1);
      }
    }
  }

  private void route(final HttpExchange exchange) throws IOException {
    final String path = exchange.getRequestURI().getRawPath();
    final String page = PAGES.get(path);
    if (page != null) {
      send(exchange, 200, contentType(page), resources.get(page));
      return;
    }
    if ("/api/tenants".equals(path)) {
      sendJson(exchange, 200, tenants());
      return;
    }
    if ("/api/anomalies".equals(path)) {
      final Map<String, String> q = query(exchange.getRequestURI().getRawQuery());
      final Optional<Level> level;
      try {
        level = param(q, "level").map(l -> Level.valueOf(l.toUpperCase(Locale.ROOT)));
      } catch (final IllegalArgumentException e) {
        sendJson(exchange, 400, error("unknown level: " + q.get("level")));
        return;
      }
      final int limit;
      try {
        limit = param(q, "limit").map(Integer::parseInt).orElse(DEFAULT_LIMIT);
      } catch (final NumberFormatException e) {
        sendJson(exchange, 400, error("limit must be an integer"));
        return;
      }
      final UiState.Filter filter = new UiState.Filter(param(q, "type"), level, param(q, "tenant"));
      sendJson(exchange, 200, feed(filter, Math.max(0, limit)));
      return;
    }
    if (path.startsWith("/api/anomalies/")) {
      final String rest = path.substring("/api/anomalies/".length());
      final boolean svg = rest.endsWith("/graph.svg");
      final String id = URLDecoder.decode(svg ? rest.substring(0, rest.length() - "/graph.svg".length()) : rest,
          StandardCharsets.UTF_8);
      final Optional<Anomaly> a = state.anomaly(id);
      if (a.isEmpty()) {
        sendJson(exchange, 404, error("no anomaly with this id is held (unknown, or older than the"
            + " ui.max.anomalies kept)"));
      } else if (svg) {
        send(exchange, 200, "image/svg+xml; charset=utf-8", SvgGraph.render(a.get()).getBytes(StandardCharsets.UTF_8));
      } else {
        sendJson(exchange, 200, detail(a.get()));
      }
      return;
    }
    sendJson(exchange, 404, error("not found"));
  }

  private ObjectNode tenants() {
    final ObjectNode root = JSON.createObjectNode();
    final ArrayNode list = root.putArray("tenants");
    for (final UiState.TenantView t : state.tenants()) {
      final ObjectNode n = list.addObject();
      n.put("tenant", t.tenant());
      n.put("anomaliesSeen", t.anomaliesSeen());
      if (t.verdict().isPresent()) {
        final TenantVerdict v = t.verdict().get();
        n.put("atMicros", v.getAtMicros());
        final ArrayNode levels = n.putArray("levels");
        final List<LevelVerdict> weakestFirst = new ArrayList<>(v.getLevels());
        weakestFirst.sort(Comparator.comparing(LevelVerdict::getLevel, UiState.WEAKEST_FIRST));
        for (final LevelVerdict l : weakestFirst) {
          levels.addObject().put("level", l.getLevel().name()).put("verdict", l.getVerdict().name())
              .put("reason", l.getReason());
        }
        promise(n, t.tenant(), v);
        n.put("transactionsChecked", v.getCounts().getTransactionsChecked());
        n.put("pendingReads", v.getCounts().getPendingReads());
        final ObjectNode byName = n.putObject("anomaliesByName");
        v.getCounts().getAnomaliesByName().forEach(byName::put);
        final ObjectNode findings = n.putObject("findingsByKind");
        v.getCounts().getFindingsByKind().forEach(findings::put);
      } else {
        n.putNull("atMicros");
        n.putArray("levels");
        promise(n, t.tenant(), null);
      }
      final ArrayNode throughput = n.putArray("throughput");
      t.throughput().forEach(p -> throughput.addObject().put("atMicros", p.atMicros())
          .put("txnPerSecond", p.txnPerSecond()));
      final ArrayNode latency = n.putArray("latency");
      t.latency().forEach(p -> latency.addObject().put("atMicros", p.atMicros()).put("seconds", p.seconds())
          .put("id", p.id()).put("anomalyId", p.anomalyId()).put("name", p.name()));
    }
    return root;
  }

  private ObjectNode feed(final UiState.Filter filter, final int limit) {
    final ObjectNode root = JSON.createObjectNode();
    root.put("total", state.count(filter));
    root.put("received", state.anomaliesReceived());
    final ArrayNode list = root.putArray("anomalies");
    state.anomalies(filter, limit).forEach(a -> summary(list.addObject(), a));
    list.forEach(n -> breaksPromise((ObjectNode) n));
    final UiState.Facets facets = state.facets();
    final ObjectNode f = root.putObject("facets");
    facets.types().forEach(f.putArray("types")::add);
    facets.tenants().forEach(f.putArray("tenants")::add);
    final ArrayNode levels = f.putArray("levels");
    facets.levels().forEach(l -> levels.add(l.name()));
    return root;
  }

  private static void summary(final ObjectNode n, final Anomaly a) {
    // id: what the UI knows it by (its addresses): the uniqueId, or the anomalyId of an older record.
    n.put("id", AnomalyIds.identity(a));
    n.put("anomalyId", a.getAnomalyId());
    n.put("uniqueId", a.getUniqueId());
    n.put("tenant", a.getTenant());
    n.put("type", a.getType());
    n.put("name", a.getName());
    n.put("displayName", UiState.displayName(a));
    final ArrayNode violates = n.putArray("violates");
    a.getViolates().forEach(l -> violates.add(l.name()));
    final ArrayNode txns = n.putArray("txns");
    a.getTransactions().forEach(t -> txns.add(t.getTxn()));
    n.put("detectedAtMicros", a.getDetectedAtMicros());
    if (a.getDetectionLatencyMicros() == null) {
      n.putNull("detectionLatencyMicros");
    } else {
      n.put("detectionLatencyMicros", a.getDetectionLatencyMicros());
    }
    if (a.getRetraction() == null) {
      n.putNull("retraction");
    } else {
      n.putObject("retraction").put("retractedAtMicros", a.getRetraction().getRetractedAtMicros())
          .put("causeTxn", a.getRetraction().getCauseTxn()).put("reason", a.getRetraction().getReason());
    }
  }

  /** The tenant's promise against its latest verdict ({@code null} when none yet): see {@link PromiseView}. */
  private void promise(final ObjectNode n, final String tenant, final TenantVerdict v) {
    final Map<String, String> verdicts = new HashMap<>();
    if (v != null) {
      for (final LevelVerdict l : v.getLevels()) {
        verdicts.put(l.getLevel().name(), l.getVerdict().name());
      }
    }
    n.set("promise", promises.json(tenant, v == null ? null : verdicts));
  }

  /** {@code "breaksPromise": true|false} on an anomaly (false when its tenant is promised nothing). */
  private void breaksPromise(final ObjectNode n) {
    final List<String> violates = new ArrayList<>();
    n.get("violates").forEach(l -> violates.add(l.asText()));
    n.put("breaksPromise", promises.breaks(n.get("tenant").asText(), violates));
  }

  private ObjectNode detail(final Anomaly a) {
    final ObjectNode n = JSON.createObjectNode();
    summary(n, a);
    breaksPromise(n);
    final ArrayNode cycle = n.putArray("cycle");
    for (final Edge e : a.getCycle()) {
      final ObjectNode c = cycle.addObject().put("from", e.getFrom()).put("to", e.getTo())
          .put("kind", e.getKind().name()).put("key", e.getKey());
      if (e.getValue() == null) {
        c.putNull("value");
      } else {
        c.put("value", e.getValue());
      }
    }
    final ArrayNode txns = n.putArray("transactions");
    for (final AnomalyTransaction t : a.getTransactions()) {
      final ObjectNode o = txns.addObject().put("txn", t.getTxn()).put("session", t.getSession())
          .put("status", t.getStatus().name());
      putNullable(o, "seq", t.getSeq());
      putNullable(o, "startMicros", t.getStartMicros());
      putNullable(o, "endMicros", t.getEndMicros());
      final ArrayNode ops = o.putArray("ops");
      for (final Op op : t.getOps()) {
        final ObjectNode p = ops.addObject().put("t", op.getType() == OpType.READ ? "r" : "w").put("k", op.getKey());
        putNullable(p, "v", op.getValue());
      }
    }
    n.put("explanation", a.getExplanation());
    return n;
  }

  private static void putNullable(final ObjectNode n, final String field, final Long value) {
    if (value == null) {
      n.putNull(field);
    } else {
      n.put(field, value);
    }
  }

  private static ObjectNode error(final String message) {
    return JSON.createObjectNode().put("error", message);
  }

  private static Optional<String> param(final Map<String, String> q, final String name) {
    return Optional.ofNullable(q.get(name)).filter(s -> !s.isBlank());
  }

  private static Map<String, String> query(final String raw) {
    final Map<String, String> out = new HashMap<>();
    if (raw == null) {
      return out;
    }
    for (final String pair : raw.split("&")) {
      final int eq = pair.indexOf('=');
      if (eq > 0) {
        out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static String contentType(final String file) {
    if (file.endsWith(".html")) {
      return "text/html; charset=utf-8";
    }
    if (file.endsWith(".css")) {
      return "text/css; charset=utf-8";
    }
    return "text/javascript; charset=utf-8";
  }

  private static void sendJson(final HttpExchange exchange, final int status, final ObjectNode body)
      throws IOException {
    send(exchange, status, "application/json", JSON.writeValueAsBytes(body));
  }

  private static void send(final HttpExchange exchange, final int status, final String contentType,
      final byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
    // The pages load only their own scripts and styles; the SVG is inserted from the same origin.
    exchange.getResponseHeaders().set("Content-Security-Policy",
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'");
    final boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(status, head ? -1 : body.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
