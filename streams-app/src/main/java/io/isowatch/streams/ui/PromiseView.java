package io.isowatch.streams.ui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.profile.Promise;
import io.isowatch.core.profile.PromiseJudgement;
import io.isowatch.streams.PromisedLevels;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The web UI's view of the tenants' promises: the core's {@link PromiseJudgement} of a tenant's
 * latest published verdicts, and whether a published anomaly breaks its tenant's promise. Works on
 * level names as the topics carry them, so a level the topics carry later needs nothing here.
 */
final class PromiseView {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private final PromisedLevels promised;

  PromiseView(final PromisedLevels promised) {
    this.promised = promised;
  }

  /**
   * {@code {"spec", "database", "namedLevel", "promised", "outcome", "broken", "undecided",
   * "unchecked", "allowed", "weakerThan"}} for {@code tenant}, level lists strongest first;
   * {@code outcome} null before the first verdict ({@code verdicts} null); JSON null when the tenant
   * is promised nothing.
   */
  com.fasterxml.jackson.databind.JsonNode json(final String tenant, final Map<String, String> verdicts) {
    final Optional<Promise> p = promised.promiseOf(tenant);
    if (p.isEmpty()) {
      return NullNode.getInstance();
    }
    final Map<Level, Verdict> byLevel = new EnumMap<>(Level.class);
    if (verdicts != null) {
      verdicts.forEach((l, v) -> byLevel.put(Level.valueOf(l), Verdict.valueOf(v)));
    }
    final PromiseJudgement j = PromiseJudgement.of(p.get(), byLevel);
    final ObjectNode o = NODES.objectNode();
    o.put("spec", p.get().spec());
    o.put("database", p.get().database());
    o.put("namedLevel", p.get().namedLevel());
    o.set("promised", levels(p.get().promised()));
    o.put("outcome", verdicts == null ? null : j.outcome().name());
    o.set("broken", levels(j.broken()));
    o.set("undecided", levels(j.undecided()));
    o.set("unchecked", levels(j.unchecked()));
    o.set("allowed", levels(j.allowed()));
    o.put("weakerThan", j.weakerThan().map(Level::name).orElse(null));
    return o;
  }

  /** Whether an anomaly of {@code tenant} violating the levels named {@code violates} breaks its promise. */
  boolean breaks(final String tenant, final Collection<String> violates) {
    final Set<Level> levels = promised.of(tenant);
    return violates.stream().anyMatch(l -> levels.contains(Level.valueOf(l)));
  }

  private static ArrayNode levels(final Set<Level> levels) {
    final ArrayNode a = NODES.arrayNode();
    Level.strongestFirst(levels).forEach(l -> a.add(l.name()));
    return a;
  }
}
