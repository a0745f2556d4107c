package io.isowatch.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.oracle.WeakLevel;
import io.isowatch.core.oracle.WeakLevelOracle;
import io.isowatch.core.report.JsonReport;
import io.isowatch.core.report.TextReport;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A MIXED refutation that needs a case split inside a case (numbered 1, 2, 2.1, 2.2): found by a
 * targeted search over random histories with blind writes and random declared levels (6 in 100,000
 * had one; the smallest, three SI transactions, is below). The explanation is the nested case
 * analysis: the split of case 2 is written inside it, indented, its cases numbered under it; every
 * case that is not split again closes a cycle of steps that follow one another; the "where" line
 * of a derived step is there; every claim is true of the history; and the text report and the
 * JSON document carry it.
 */
class MixedNestedSplitExplanationTest {
  // T2's read of x from init is broken if T1 (which writes y, as T3 does after reading T2's y) comes
  // between; the split on it leaves case 2 open until T3's read splits again.
  private static final String HISTORY = """
      T1 s1 r(x,0) w(x,1) w(y,2)
      T2 s2 r(x,0) w(y,3)
      T3 s2 r(y,3) w(x,4) w(x,5)
      """;
  private static final Pattern CASE = Pattern.compile("^( *)(\\d+(?:\\.\\d+)*)\\. if (\\S+) < (\\S+)(, this closes a cycle)?:$");
  private static final Pattern STEP = Pattern.compile("^( *)- (\\S+) < (\\S+), because ");

  @Test
  void shouldWriteANestedSplitWithEachCaseNumberedIndentedAndClosed() {
    // Given: three SI transactions whose refutation splits, and splits again in case 2
    final History h = HistoryDsl.history(HISTORY);
    final Map<String, Level> declared = Map.of("T1", Level.SI, "T2", Level.SI, "T3", Level.SI);
    assertFalse(WeakLevelOracle.decideMixed(h, 0L, t -> WeakLevel.SI), "the oracle finds a commit order");

    // When
    final MixedLevelCheck.Result r = new MixedLevelCheck(MixedForkSearchTest.entries(h), 0L, false, true,
        t -> declared.get(t.id())).decide(EnumSet.of(Level.MIXED));

    // Then: VIOLATED, explained by the nested split
    assertEquals(Verdict.VIOLATED, r.verdict(), r.unknownReason());
    final String text = r.witness().explanation();
    final List<String> lines = List.of(text.split("\n"));
    final Map<String, String> cases = new LinkedHashMap<>(); // number -> "closes" or "splits"
    final Map<String, List<String[]>> steps = new LinkedHashMap<>();
    final Map<String, Integer> wheres = new LinkedHashMap<>();
    String current = null;
    for (int i = 0; i < lines.size(); i++) {
      final String line = lines.get(i);
      final Matcher c = CASE.matcher(line);
      if (c.matches()) {
        current = c.group(2);
        final int depth = current.split("\\.").length - 1;
        assertEquals(2 * depth, c.group(1).length(), "case " + current + " indented by its depth: " + line);
        cases.put(current, c.group(5) != null ? "closes" : "splits");
        steps.put(current, new ArrayList<>());
        if (c.group(5) == null) {
          // a case split again: the next line is its split, one level further in, naming the case
          final String split = " ".repeat(2 * depth + 2) + "Every commit order in case " + current + " takes one of these ";
          assertTrue(lines.get(i + 1).startsWith(split), "the split of case " + current + ": " + lines.get(i + 1));
        }
        continue;
      }
      if (current != null && line.trim().startsWith("- where ")) {
        wheres.merge(current, 1, Integer::sum);
        continue;
      }
      final Matcher s = STEP.matcher(line);
      if (s.find() && current != null) {
        final int depth = current.split("\\.").length - 1;
        {
          assertEquals(2 * depth + 2, s.group(1).length(), "a step of case " + current + " indented under it: " + line);
          steps.get(current).add(new String[] {s.group(2), s.group(3)});
        }
      }
    }
    // the cases, numbered as the analysis goes: 1 and 2 at the top, 2.1 and 2.2 inside case 2
    assertEquals(Map.of("1", "closes", "2", "splits", "2.1", "closes", "2.2", "closes"), cases, text);
    assertTrue(text.startsWith("Let:\n"), text);
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("Every commit order takes one of these 2 cases: in any other, ")),
        text);
    assertTrue(text.contains("Every commit order in case 2 takes one of these 2 cases: in any other, "), text);
    // every closed case's steps form a cycle: each step starts where the one before ended
    for (final Map.Entry<String, String> e : cases.entrySet()) {
      final List<String[]> cycle = steps.get(e.getKey());
      if (e.getValue().equals("splits")) {
        assertEquals(List.of(), cycle, "case " + e.getKey() + " is split, not closed");
        continue;
      }
      assertTrue(cycle.size() >= 2, "case " + e.getKey() + ": " + text);
      for (int i = 0; i < cycle.size(); i++) {
        assertEquals(cycle.get(i)[1], cycle.get((i + 1) % cycle.size())[0], "case " + e.getKey() + " step " + i + ": "
            + text);
      }
    }
    // the derived step of case 2.2 (T3 before init, by T1's Conflict) says why its premise holds
    assertEquals(Map.of("2.2", 1), wheres, text);
    assertTrue(text.contains("    - where T3 < T1: T3 < T1, because case 2.2 assumes it"), text);
    assertTrue(text.contains("whichever case holds, the promise of one of "), text);
    // A transaction never "commits no later than" itself (a premise whose writer is the related one).
    assertFalse(java.util.regex.Pattern.compile("while (T\\d+), which also wrote [^,]+, commits no later than \\1\\b")
        .matcher(text).find(), text);
    // every read, write, session order and "which also wrote" it cites is the history's
    assertEquals(List.of(), MixedForkCoreTest.checkClaims(r.witness(), h, declared), text);
  }

  @Test
  void shouldCarryTheNestedSplitInTheTextReportAndTheJsonDocument() {
    // Given
    final History h = HistoryDsl.history(HISTORY);
    final CheckOptions options = CheckOptions.defaults().withLevels(EnumSet.of(Level.MIXED)).withDefaultLevel(Level.SI);

    // When: checked as `isowatch check --levels MIXED --default-level SI` does
    final CheckResult result = OnlineChecker.check(h, options);
    final String report = new TextReport(false).render(result);
    final JsonNode json = JsonReport.toTree(result);

    // Then: the same nested explanation in both
    assertEquals(Verdict.VIOLATED, result.verdicts().get(Level.MIXED));
    final Anomaly a = result.anomalies().stream().filter(x -> x.violates().contains(Level.MIXED)).findFirst()
        .orElseThrow();
    assertTrue(a.explanation().contains("\n  2.1. if ") && a.explanation().contains("\n  2.2. if "), a.explanation());
    for (final String line : a.explanation().split("\n")) {
      assertTrue(report.contains(line.strip()), "the text report lacks: " + line + "\n" + report);
    }
    JsonNode mixed = null;
    for (final JsonNode n : json.get("anomalies")) {
      if (n.get("violates").toString().contains("MIXED")) {
        mixed = n;
      }
    }
    assertTrue(mixed != null, json.toString());
    assertEquals(a.explanation(), mixed.get("explanation").asText());
  }
}
