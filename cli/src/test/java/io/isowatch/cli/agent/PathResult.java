package io.isowatch.cli.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyIds;
import io.isowatch.schemas.LevelVerdict;
import io.isowatch.schemas.TenantVerdict;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What one check path concluded about a tenant's history, in a form both paths produce: {@code
 * isowatch check --json} on the recorded file, and the streaming checker's anomalies and final
 * verdict. Two equal results agree anomaly for anomaly (id, type, name, violated levels,
 * transactions), level for level and count for count.
 *
 * @param verdicts the verdict per checked level
 * @param countsByName anomalies found per display name (the MTC name, or the type when unnamed)
 * @param anomalies the anomalies listed, by id
 */
public record PathResult(Map<Level, Verdict> verdicts, Map<String, Long> countsByName, Map<String, Found> anomalies) {

  public PathResult {
    verdicts = Map.copyOf(verdicts);
    countsByName = Map.copyOf(countsByName);
    anomalies = Collections.unmodifiableMap(new TreeMap<>(anomalies));
  }

  /** One anomaly: its uniqueId ({@link AnomalyIds#unique}), type, name or null, levels and transactions. */
  public record Found(String id, String type, String name, Set<String> violates, Set<String> txns) {
    public Found {
      violates = Set.copyOf(violates);
      txns = Set.copyOf(txns);
    }

    /** The MTC name, or the type when the anomaly has none. */
    public String displayName() {
      return name != null ? name : type;
    }
  }

  /** The result of {@code isowatch check --json}, with the uniqueIds the checker gives the tenant. */
  public static PathResult fromCheckJson(final String tenant, final JsonNode check) {
    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    check.get("verdicts").fields().forEachRemaining(e ->
        verdicts.put(Level.valueOf(e.getKey()), Verdict.valueOf(e.getValue().asText())));
    final Map<String, Long> counts = new TreeMap<>();
    check.get("stats").get("anomaliesByName").fields().forEachRemaining(e -> counts.put(e.getKey(), e.getValue().asLong()));
    final List<Found> found = new ArrayList<>();
    for (final JsonNode a : check.get("anomalies")) {
      final List<String> txns = texts(a.get("txns"));
      final String name = a.get("name").isNull() ? null : a.get("name").asText();
      final String type = a.get("type").asText();
      found.add(new Found(uniqueId(tenant, type, name, txns, a), type, name, Set.copyOf(texts(a.get("violates"))),
          Set.copyOf(txns)));
    }
    return new PathResult(verdicts, counts, byId(found, "isowatch check listed"));
  }

  /** The uniqueId ({@link AnomalyIds#unique}) of an anomaly of the check document. */
  private static String uniqueId(final String tenant, final String type, final String name, final List<String> txns,
      final JsonNode a) {
    final List<AnomalyIds.CycleEdge> cycle = new ArrayList<>();
    for (final JsonNode e : a.get("cycle")) {
      cycle.add(new AnomalyIds.CycleEdge(e.get("from").asText(), e.get("to").asText(), e.get("kind").asText(),
          e.get("key").isNull() ? null : e.get("key").asText(), e.get("value").isNull() ? null : e.get("value").asLong()));
    }
    final JsonNode r = a.get("read");
    final AnomalyIds.ReadOp read = r == null || r.isNull() ? null : new AnomalyIds.ReadOp(r.get("txn").asText(),
        r.get("op").asInt(), r.get("key").asText(), r.get("value").isNull() ? null : r.get("value").asLong());
    return AnomalyIds.unique(tenant, type, name, txns, cycle, read);
  }

  /** The streaming checker's result: the anomalies it published and its latest verdict. */
  public static PathResult fromStream(final Collection<Anomaly> published, final TenantVerdict verdict) {
    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    for (final LevelVerdict l : verdict.getLevels()) {
      verdicts.put(Level.valueOf(l.getLevel().name()), Verdict.valueOf(l.getVerdict().name()));
    }
    final List<Found> found = published.stream().map(a -> {
      if (!AnomalyIds.unique(a).equals(a.getUniqueId())) {
        throw new AssertionError("anomaly " + a.getAnomalyId() + " was published with uniqueId " + a.getUniqueId()
            + ", not the one its content gives: " + AnomalyIds.unique(a));
      }
      return new Found(a.getUniqueId(), a.getType(), a.getName(),
          a.getViolates().stream().map(Enum::name).collect(Collectors.toSet()),
          a.getTransactions().stream().map(t -> t.getTxn()).collect(Collectors.toSet()));
    }).toList();
    return new PathResult(verdicts, new TreeMap<>(verdict.getCounts().getAnomaliesByName()),
        byId(found, "the streaming checker published"));
  }

  public Verdict verdict(final Level level) {
    return verdicts.get(level);
  }

  /** Display names of the listed anomalies. */
  public Set<String> names() {
    return anomalies.values().stream().map(Found::displayName).collect(Collectors.toCollection(TreeSet::new));
  }

  /** True when every checked level is satisfied. */
  public boolean allSatisfied() {
    return verdicts.values().stream().allMatch(v -> v == Verdict.SATISFIED);
  }

  /** What differs from {@code other}, for assertion messages (empty when equal). */
  public String differences(final PathResult other) {
    final List<String> out = new ArrayList<>();
    if (!verdicts.equals(other.verdicts)) {
      out.add("verdicts " + new TreeMap<>(verdicts) + " vs " + new TreeMap<>(other.verdicts));
    }
    if (!countsByName.equals(other.countsByName)) {
      out.add("counts " + new TreeMap<>(countsByName) + " vs " + new TreeMap<>(other.countsByName));
    }
    final List<String> missing = anomalies.keySet().stream().filter(id -> !other.anomalies.containsKey(id)).toList();
    final List<String> extra = other.anomalies.keySet().stream().filter(id -> !anomalies.containsKey(id)).toList();
    final List<Found> changed = anomalies.values().stream()
        .filter(f -> other.anomalies.containsKey(f.id()) && !other.anomalies.get(f.id()).equals(f)).toList();
    if (!missing.isEmpty()) {
      out.add(missing.size() + " anomalies only here, e.g. " + anomalies.get(missing.get(0)));
    }
    if (!extra.isEmpty()) {
      out.add(extra.size() + " anomalies only there, e.g. " + other.anomalies.get(extra.get(0)));
    }
    if (!changed.isEmpty()) {
      out.add(changed.size() + " anomalies differ, e.g. " + changed.get(0) + " vs " + other.anomalies.get(changed.get(0).id()));
    }
    return String.join("; ", out);
  }

  /** Verdicts and anomaly counts, for assertion messages. */
  public String summary() {
    return "verdicts " + new TreeMap<>(verdicts) + "; anomalies " + new TreeMap<>(countsByName);
  }

  /**
   * The anomalies by uniqueId. Distinct anomalies have distinct uniqueIds (keys, edges and reads
   * included), so a repeated id is a duplicate, which neither path may produce.
   */
  private static Map<String, Found> byId(final List<Found> found, final String path) {
    final Map<String, Found> out = new TreeMap<>();
    for (final Found f : found) {
      if (out.put(f.id(), f) != null) {
        throw new AssertionError(path + " anomaly id " + f.id() + " twice");
      }
    }
    return out;
  }

  private static List<String> texts(final JsonNode array) {
    final List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
