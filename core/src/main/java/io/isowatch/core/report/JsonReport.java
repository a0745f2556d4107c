package io.isowatch.core.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.CheckStats;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.Finding;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.profile.Promise;
import io.isowatch.core.profile.PromiseJudgement;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Collection;
import java.util.TreeMap;

/**
 * The machine-readable report of one check: exactly one JSON document, the public contract of
 * {@code isowatch check --json}. Its shape:
 *
 * <pre>{@code
 * {
 *   "verdicts":  {"SSER": "VIOLATED", "SER": "VIOLATED", "SI": "UNKNOWN"},
 *   "levelOrder": ["SI", "SER", "SSER"],
 *   "reasons":   {"SI": "why SI could not be decided"},
 *   "anomalies": [{
 *       "type": "G-single", "name": "LostUpdate", "violates": ["SSER", "SER", "SI"],
 *       "txns": ["s1-3", "s2-7"],
 *       "cycle": [{"from": "s1-3", "to": "s2-7", "kind": "RW", "key": "x", "value": 0},
 *                 {"from": "s2-7", "to": "s1-3", "kind": "WW", "key": "x", "value": 2}],
 *       "read": null,
 *       "explanation": "Let: …\nThen: …",
 *       "transactions": [{"id": "s1-3", "session": "s1", "seq": 3, "status": "committed",
 *                         "start": 10, "end": 20, "line": 4,
 *                         "ops": [{"t": "r", "k": "x", "v": 0}, {"t": "w", "k": "x", "v": 1}]}]}],
 *   "findings":  [{"kind": "BLIND_WRITE", "severity": "UNDECIDABLE", "levels": ["SI"], "key": "y",
 *                  "count": 3, "txns": ["s1-3"], "lines": [4], "message": "…"}],
 *   "stats":     {"transactions": 1000, "committed": 990, "aborted": 8, "unknownPromoted": 1,
 *                 "unknownIgnored": 1, "sessions": 10, "keys": 50, "operations": 3000,
 *                 "longRmwTransactions": 0, "largeReadOnlyTransactions": 0, "edges": 4000,
 *                 "anomaliesByName": {"LostUpdate": 1}, "anomaliesTruncated": false,
 *                 "seconds": 0.042,
 *                 "retired": {"versions": 5000000, "filterBytes": 14680064,
 *                             "falsePositiveRatio": 0.00041, "falsePositiveBound": 0.001},
 *                 "retiredRuns": {"runs": 1000, "bytes": 16000, "versions": 4990000, "maxRuns": 4194304}}
 * }
 * }</pre>
 *
 * <p>Rules that consumers may rely on:
 *
 * <ul>
 *   <li>{@code verdicts} holds exactly the requested levels, strongest first, in the order SSER,
 *       SER, RR, SI, PC, CC, RA, RC, PL2 (docs/levels.md); each value is {@code SATISFIED},
 *       {@code VIOLATED} or {@code UNKNOWN}. {@code levelOrder} lists the same levels weakest first,
 *       the order the text report reads them in (so the strongest level that holds comes last).
 *   <li>{@code reasons} holds one sentence per UNKNOWN level (possibly none: then it is {@code {}}).
 *   <li>{@code anomalies} is in the engine's canonical order and capped by {@code --max-anomalies};
 *       {@code stats.anomaliesByName} and {@code stats.anomaliesTruncated} give the exact counts.
 *       {@code name} is {@code null} when no named pattern matches; {@code violates} is ordered
 *       strongest first, as {@code verdicts}; {@code txns} are the ids of {@code transactions}, in cycle order for cycles.
 *       {@code cycle} is closed (the last edge ends where the first starts) and empty for
 *       non-cycle anomalies; {@code kind} is one of SO, RT, WR, WW, RW; {@code key} and {@code
 *       value} are {@code null} for SO and RT, and {@code value} is {@code null} for a read of an
 *       absent key. {@code read} is the read a non-cycle anomaly is about ({@code {"txn": id, "op":
 *       its position in the transaction's ops from 0, "key": k, "value": v or null}}); {@code null}
 *       for cycles. Two listed anomalies always differ in type, name, transactions, cycle or read.
 *   <li>In {@code transactions}, {@code seq}, {@code start}, {@code end} and {@code line} are
 *       {@code null} when the source gave none; {@code status} and {@code ops} are spelled as in the
 *       native JSONL format ({@code committed|aborted|unknown}; {@code {"t": "r"|"w", "k": key,
 *       "v": value or null}}).
 *   <li>{@code findings[].levels} lists the levels the finding makes undecidable (ordered strongest
 *       first); {@code key} is {@code null} for findings about no single key.
 *   <li>{@code stats.retired} is present only for a segmented check that pruned something: the
 *       filters of retired versions, and the probability, at most, that a read of a value never
 *       written was taken for a stale read beyond the horizon (docs/segmentation.md); {@code
 *       versions} counts every retired version. {@code stats.retiredRuns} comes with it: the exact
 *       run-sets, which held {@code versions} of them (the filters hold the rest, and only the filters
 *       can be wrong).
 *   <li>Fields are only ever added, never renamed or removed: ignore the ones you do not know.
 * </ul>
 */
public final class JsonReport {
  // The document is written by a generator walking the tree, not by an ObjectMapper: building a
  // mapper and its serializers for the tree's node types cost more CPU than the rest of printing a
  // report, on the critical path of every `isowatch check --json` (docs/benchmarks.md, clifast4).
  // The text is byte for byte the mapper's (INDENT_OUTPUT, i.e. the DefaultPrettyPrinter), tested
  // against it by JsonReportTest.
  private static final JsonFactory JSON = JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonReport() {}

  /** Writes the document, followed by one newline; does not close {@code out}. */
  public static void write(final CheckResult result, final Writer out) throws IOException {
    writeTree(toTree(result), out);
    out.write('\n');
    out.flush();
  }

  /** The document as a string (pretty-printed, no trailing newline). */
  public static String toJson(final CheckResult result) {
    final java.io.StringWriter out = new java.io.StringWriter();
    try {
      writeTree(toTree(result), out);
    } catch (final IOException e) {
      // Serialising an in-memory tree to a string cannot fail on I/O.
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /**
   * Writes a tree pretty-printed as an {@code ObjectMapper} with {@code INDENT_OUTPUT} writes it, no
   * trailing newline; flushes but does not close {@code out}.
   */
  static void writeTree(final JsonNode tree, final Writer out) throws IOException {
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.setPrettyPrinter(new DefaultPrettyPrinter());
      write(g, tree);
    }
  }

  private static void write(final JsonGenerator g, final JsonNode n) throws IOException {
    switch (n.getNodeType()) {
      case OBJECT -> {
        g.writeStartObject();
        for (final java.util.Map.Entry<String, JsonNode> e : n.properties()) {
          g.writeFieldName(e.getKey());
          write(g, e.getValue());
        }
        g.writeEndObject();
      }
      case ARRAY -> {
        g.writeStartArray();
        for (final JsonNode element : n) {
          write(g, element);
        }
        g.writeEndArray();
      }
      case STRING -> g.writeString(n.textValue());
      case BOOLEAN -> g.writeBoolean(n.booleanValue());
      case NULL -> g.writeNull();
      case NUMBER -> {
        switch (n.numberType()) {
          case INT -> g.writeNumber(n.intValue());
          case LONG -> g.writeNumber(n.longValue());
          case DOUBLE -> g.writeNumber(n.doubleValue());
          case FLOAT -> g.writeNumber(n.floatValue());
          case BIG_INTEGER -> g.writeNumber(n.bigIntegerValue());
          case BIG_DECIMAL -> g.writeNumber(n.decimalValue());
          default -> throw new IllegalStateException("unexpected number node " + n.numberType());
        }
      }
      // The document holds none of these; a node the walk does not know is a bug here, not input.
      default -> throw new IllegalStateException("unexpected JSON node " + n.getNodeType());
    }
  }

  /**
   * Writes the document read against a promise ({@code check --promise}): the document of {@link
   * #write(CheckResult, Writer)} with a {@code promise} object and each anomaly's {@code
   * breaksPromise} added. {@code judgement} null: exactly the document without a promise.
   */
  public static void write(final CheckResult result, final PromiseJudgement judgement, final Writer out)
      throws IOException {
    writeTree(toTree(result, judgement), out);
    out.write('\n');
    out.flush();
  }

  /**
   * The document with the promise fields (added compatibly; absent without a promise):
   *
   * <pre>{@code
   * "promise": {"spec": "postgres:read-committed", "database": "PostgreSQL", "namedLevel": "READ COMMITTED",
   *             "promised": ["RC", "PL2"], "outcome": "KEPT", "broken": [], "undecided": [],
   *             "unchecked": [], "allowed": ["SER", "SI", "RA"], "weakerThan": "RA",
   *             "notGiven": {"SI": "lost update (Hermitage P4)", "RA": "…"}, "certainty": "DOCUMENTED",
   *             "note": "…", "sources": ["PostgreSQL documentation, …", "Hermitage …"]}
   * }</pre>
   *
   * <p>and in each anomaly {@code "breaksPromise": true|false}. Level lists are strongest first, as
   * everywhere in the document; {@code weakerThan} is {@code null} when the promise is broken or no
   * level outside it is violated.
   */
  public static ObjectNode toTree(final CheckResult result, final PromiseJudgement judgement) {
    final ObjectNode root = toTree(result);
    if (judgement == null) {
      return root;
    }
    final ArrayNode anomalies = (ArrayNode) root.get("anomalies");
    for (int i = 0; i < anomalies.size(); i++) {
      ((ObjectNode) anomalies.get(i)).put("breaksPromise", judgement.breaks(result.anomalies().get(i)));
    }
    root.set("promise", promise(judgement));
    return root;
  }

  private static ObjectNode promise(final PromiseJudgement j) {
    final Promise p = j.promise();
    final ObjectNode n = NODES.objectNode();
    n.put("spec", p.spec());
    n.put("database", p.database());
    n.put("namedLevel", p.namedLevel());
    n.set("promised", levels(p.promised()));
    n.put("outcome", j.outcome().name());
    n.set("broken", levels(j.broken()));
    n.set("undecided", levels(j.undecided()));
    n.set("unchecked", levels(j.unchecked()));
    n.set("allowed", levels(j.allowed()));
    n.put("weakerThan", j.weakerThan().map(Level::name).orElse(null));
    final ObjectNode notGiven = n.putObject("notGiven");
    for (final Level l : Level.strongestFirst(p.notGiven().keySet())) {
      notGiven.put(l.name(), p.notGiven().get(l));
    }
    n.put("certainty", p.certainty().name());
    n.put("note", p.note());
    final ArrayNode sources = n.putArray("sources");
    p.sources().forEach(sources::add);
    return n;
  }

  /** The document as a Jackson tree. */
  public static ObjectNode toTree(final CheckResult result) {
    final ObjectNode root = NODES.objectNode();
    // The contract orders levels strongest first; levelOrder (added with the weak levels) says weakest first.
    final ObjectNode verdicts = root.putObject("verdicts");
    for (final Level level : Level.strongestFirst(result.verdicts().keySet())) {
      verdicts.put(level.name(), result.verdicts().get(level).name());
    }
    final ArrayNode order = root.putArray("levelOrder");
    Notation.ordered(result.verdicts().keySet()).forEach(l -> order.add(l.name()));
    final ObjectNode reasons = root.putObject("reasons");
    for (final Level level : Level.strongestFirst(result.reasons().keySet())) {
      reasons.put(level.name(), result.reasons().get(level));
    }
    final ArrayNode anomalies = root.putArray("anomalies");
    result.anomalies().forEach(a -> anomalies.add(anomaly(a)));
    final ArrayNode findings = root.putArray("findings");
    result.findings().forEach(f -> findings.add(finding(f)));
    root.set("stats", stats(result.stats()));
    return root;
  }

  private static ObjectNode anomaly(final Anomaly a) {
    final ObjectNode n = NODES.objectNode();
    n.put("type", a.type());
    n.put("name", a.name());
    n.set("violates", levels(a.violates()));
    final ArrayNode txns = n.putArray("txns");
    a.txnIds().forEach(txns::add);
    final ArrayNode cycle = n.putArray("cycle");
    a.cycle().forEach(e -> cycle.add(edge(e)));
    if (a.read() == null) {
      n.putNull("read");
    } else {
      n.putObject("read").put("txn", a.read().txn()).put("op", a.read().op()).put("key", a.read().key())
          .put("value", a.read().value());
    }
    n.put("explanation", a.explanation());
    final ArrayNode transactions = n.putArray("transactions");
    a.transactions().forEach(t -> transactions.add(transaction(t)));
    return n;
  }

  private static ObjectNode edge(final Edge e) {
    final ObjectNode n = NODES.objectNode();
    n.put("from", e.from());
    n.put("to", e.to());
    n.put("kind", e.kind().name());
    n.put("key", e.key());
    n.put("value", e.value());
    return n;
  }

  private static ObjectNode transaction(final Transaction t) {
    final ObjectNode n = NODES.objectNode();
    n.put("id", t.id());
    n.put("session", t.session());
    n.put("seq", t.hasSeq() ? t.seq() : null);
    n.put("status", t.status().wire());
    n.put("start", t.start() == Transaction.NO_TIME ? null : t.start());
    n.put("end", t.end() == Transaction.NO_TIME ? null : t.end());
    n.put("line", t.line() > 0 ? t.line() : null);
    final ArrayNode ops = n.putArray("ops");
    t.ops().forEach(op -> ops.add(op(op)));
    return n;
  }

  private static ObjectNode op(final Op op) {
    final ObjectNode n = NODES.objectNode();
    // The native JSONL spelling, so that a transaction can be pasted back into a history file.
    n.put("t", op.type().code());
    n.put("k", op.key());
    if (op.isListRead()) {
      final com.fasterxml.jackson.databind.node.ArrayNode list = n.putArray("v");
      op.elements().forEach(list::add);
    } else {
      n.put("v", op.value());
    }
    return n;
  }

  private static ObjectNode finding(final Finding f) {
    final ObjectNode n = NODES.objectNode();
    n.put("kind", f.kind().name());
    n.put("severity", f.kind().severity().name());
    n.set("levels", levels(f.levels()));
    n.put("key", f.key());
    n.put("count", f.count());
    final ArrayNode txns = n.putArray("txns");
    f.txns().forEach(txns::add);
    final ArrayNode lines = n.putArray("lines");
    f.lines().forEach(lines::add);
    n.put("message", f.message());
    return n;
  }

  private static ObjectNode stats(final CheckStats s) {
    final ObjectNode n = NODES.objectNode();
    n.put("transactions", s.transactions());
    n.put("committed", s.committed());
    n.put("aborted", s.aborted());
    n.put("unknownPromoted", s.unknownPromoted());
    n.put("unknownIgnored", s.unknownIgnored());
    n.put("sessions", s.sessions());
    n.put("keys", s.keys());
    n.put("operations", s.operations());
    n.put("longRmwTransactions", s.longRmwTransactions());
    n.put("largeReadOnlyTransactions", s.largeReadOnlyTransactions());
    n.put("edges", s.edges());
    final ObjectNode byName = n.putObject("anomaliesByName");
    // Sorted so that the same history always yields the same bytes.
    new TreeMap<>(s.anomaliesByName()).forEach(byName::put);
    n.put("anomaliesTruncated", s.anomaliesTruncated());
    n.put("seconds", s.seconds());
    if (s.retired() != null) {
      // Only for a segmented check that pruned something, so that other documents keep their bytes.
      final ObjectNode r = n.putObject("retired");
      r.put("versions", s.retired().versions());
      r.put("filterBytes", s.retired().filterBytes());
      r.put("falsePositiveRatio", s.retired().falsePositiveRatio());
      r.put("falsePositiveBound", s.retired().falsePositiveBound());
      if (s.retired().runs() != null) {
        final ObjectNode runs = n.putObject("retiredRuns");
        runs.put("runs", s.retired().runs().runs());
        runs.put("bytes", s.retired().runs().bytes());
        runs.put("versions", s.retired().runs().versions());
        runs.put("maxRuns", s.retired().runs().maxRuns());
      }
    }
    return n;
  }

  private static ArrayNode levels(final Collection<Level> levels) {
    final ArrayNode n = NODES.arrayNode();
    Level.strongestFirst(levels).forEach(l -> n.add(l.name()));
    return n;
  }
}
