package io.isowatch.core.listappend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.WholeHistoryCheck;
import io.isowatch.core.testkit.HistoryDsl;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * The explanations of list-append anomalies state only what the history shows
 * (docs/list-append.md, "Explanations"): the register translation gives every append a read of the
 * version it builds on, and no explanation may present that as a read of the history. Checked
 * mechanically on every case of the list-append golden corpus (every anomaly kind it has), and
 * word for word on three cases.
 */
class ListAppendExplanationTest {
  private static final String CORPUS = "/corpus/list-append/";
  /** "read" as a noun ("any read shows", "every read of x"), not a claim that someone read. */
  private static final Pattern NOUN = Pattern.compile("(any|no|every|each|a|longest|one|that|committed) $");
  private static final Pattern LIST_CLAIM = Pattern.compile("^([^=\\s]+)=(\\[[-0-9,]*\\]|null)");
  private static final Pattern ENDING = Pattern.compile("^a list of (\\S+) ending in (-?\\d+)");
  private static final Pattern EMPTY = Pattern.compile("^the empty list of (\\S+?)[,;.]");
  private static final Pattern LET = Pattern.compile("^  (\\S+) = (?:(\\S+) )?\\[");

  static Stream<String> cases() throws IOException {
    try (InputStream in = ListAppendExplanationTest.class.getResourceAsStream(CORPUS)) {
      return List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")).stream()
          .filter(f -> f.endsWith(".hist")).map(f -> f.substring(0, f.length() - ".hist".length())).sorted().toList().stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void shouldClaimOnlyReadsTheHistoryHasWhenExplainingAListAppendAnomaly(final String name) throws IOException {
    // Given
    final History history = HistoryDsl.history(read(name + ".hist"));
    final Map<String, Transaction> byId = new HashMap<>();
    history.transactions().forEach(t -> byId.putIfAbsent(t.id(), t));
    for (final CheckOptions options : List.of(CheckOptions.defaults(),
        CheckOptions.defaults().withLevels(Set.of(Level.PL2, Level.RR)))) {
      // When
      final List<Anomaly> anomalies = WholeHistoryCheck.check(history, options).anomalies();
      // Then
      for (final Anomaly a : anomalies) {
        assertOnlyReadsOfTheHistory(a.explanation(), byId);
        for (final Edge e : a.cycle()) {
          if (e.kind() == EdgeKind.WR) {
            assertTrue(readEnding(byId.get(e.to()), e.key(), e.value()), () -> "WR edge " + e + " without that read in " + a.explanation());
          } else if (e.kind() == EdgeKind.RW) {
            assertTrue(readEnding(byId.get(e.from()), e.key(), e.value()), () -> "RW edge " + e + " without that read in " + a.explanation());
          }
        }
      }
    }
  }

  @Test
  void shouldTellTheGSingleCaseWithAppendsAndListsWord() {
    assertEquals("""
        Let:
          T2 = [a(x,2) r(y,[])] (session p2, committed, line 3)
          T1 = [a(x,1) a(y,1)] (session p1, committed, line 2)
        Then:
          - T2 < T1, because T2 read y=[], and T1 appended 1, which no read shows: y=[] is the latest version of y any read shows, and every append no read shows comes after it;
          - T1 < T2, because T2 appended 2 to x right after T1's 1 (the order of x every read is a prefix of: [1,2]).
        However, that makes T2 precede itself: a cycle, so no order of these transactions explains the lists the reads returned. This violates SSER, SER and SI. (G-single)
        """ + LEGEND, first("elle-g-single").explanation());
    assertEquals(List.of(new Edge("T2", "T1", EdgeKind.RW, "y", null), new Edge("T1", "T2", EdgeKind.WW, "x", 1L)),
        first("elle-g-single").cycle());
  }

  /** The engine's register sentences (around the steps) that no list-append explanation may keep. */
  private static final List<String> REGISTER_SENTENCES = List.of("explains what they observed",
      "Adya's direct serialization graph (no session order)", "last write of a key may be visible", "of the blind writes",
      "a writer that read a version", "chain of writers");

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void shouldTellTheSentencesAroundTheStepsWithAppendsAndListsWhenExplainingAListAppendAnomaly(final String name)
      throws IOException {
    // Given
    final History history = HistoryDsl.history(read(name + ".hist"));
    for (final Set<Level> levels : List.of(Set.of(Level.SSER, Level.SER, Level.SI), Set.of(Level.SI),
        Set.of(Level.SSER, Level.SER, Level.SI, Level.RR, Level.PL2), Set.of(Level.PL2, Level.RR))) {
      // When
      final List<Anomaly> anomalies = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(levels))
          .anomalies();
      // Then
      for (final Anomaly a : anomalies) {
        for (final String register : REGISTER_SENTENCES) {
          assertFalse(a.explanation().contains(register), () -> levels + ": " + a.explanation());
        }
      }
    }
  }

  @Test
  void shouldTellAnIntermediateReadAsAListMissingTheAppendersLastAppend() {
    // Given: T1 appended 1 and 2, and T2's list holds 1 without 2
    final History history = HistoryDsl.history("""
        T1 s1 a(x,1) a(x,2)
        T2 s2 r(x,[1])
        T3 s3 r(x,[1,2])
        """);
    // When
    final Anomaly a = WholeHistoryCheck.check(history, CheckOptions.defaults()).anomalies().get(0);
    // Then
    assertEquals("""
        Let:
          T2 = [r(x,[1])] (session s2, committed, line 2)
          T1 = [a(x,1) a(x,2)] (session s1, committed, line 1)
        Then:
          - T2 read x=[1], whose last element 1 T1 appended and then followed with 2 in the same transaction: a list that holds one of a transaction's appends to a key must hold its last one too (Adya G1b: only a transaction's final version of a key may be visible).
        No dependency graph exists for such a history. This violates SSER, SER and SI. (G1b, IntermediateRead)
        """ + LEGEND, a.explanation());
  }

  @Test
  void shouldTellTheSearchOfOrdersAsOneOfTheAppendsNoReadShows() {
    // Given: ListAppendCheckTest's stale reader among unobserved appends: x=[1] is the latest list of x read, 4 and
    // 5 come after it in an order nothing fixes, and either order closes a G-single
    final History history = HistoryDsl.history("""
        T1 s1 a(x,1) a(y,2)
        T2 s2 r(x,[1]) a(y,3) a(x,4)
        T3 s3 r(y,[2]) a(x,5)
        """);
    // When
    final Anomaly a = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(Set.of(Level.SI)))
        .anomalies().get(0);
    // Then
    assertEquals("Every order of the appends no read shows has a cycle at SI: this one's edges hold in every order that "
        + "has no other cycle (an append comes right after the list its transaction saw, and every append no read "
        + "shows comes after the latest list any read shows): T2 -WW(x=4)-> T3 -RW(y=2)-> T2.\n" + LEGEND,
        a.explanation());
  }

  @Test
  void shouldNameTheUsersKeyInTheSummaryOfAppendsNoReadShowsBeyondTheNamedKeys() {
    // Given: 25 keys, each with two appends no read shows (the engine names 20 keys, then summarizes)
    final StringBuilder text = new StringBuilder();
    for (int k = 0; k < 25; k++) {
      text.append("A").append(k).append(" s1 a(k").append(k).append(",1) r(k").append(k).append(",[1])\n");
      text.append("B").append(k).append(" s2 a(k").append(k).append(",2)\n");
      text.append("C").append(k).append(" s3 a(k").append(k).append(",3)\n");
    }
    // When
    final io.isowatch.core.check.CheckResult r = WholeHistoryCheck.check(HistoryDsl.history(text.toString()),
        CheckOptions.defaults());
    // Then: the summary (no key) speaks of the user's keys, never of the stand-in keys (k7')
    final io.isowatch.core.check.Finding summary = r.findings().stream()
        .filter(f -> f.kind() == io.isowatch.core.check.FindingKind.BLIND_WRITE && f.key() == null).findFirst()
        .orElseThrow(() -> new AssertionError(r.findings()));
    assertFalse(summary.message().contains("'"), summary.message());
    assertTrue(summary.message().matches("\\d+ append\\(s\\) that no read shows, on keys beyond those named in the "
        + "other BLIND_WRITE findings, e\\.g\\. to k\\d+ by .*"), summary.message());
  }

  @Test
  void shouldTellTheAdyaCycleWithTheListsOrdersAtPl2() {
    // Given: the G1c the stream published at PL2 in ListAppendOnlineCheckerTest (seed 7, history 155), its
    // lists without the duplicate: T3's 3 follows T1's 2 and T11's 11 follows it in z, T7's 6 follows T11's 10
    // and T1's 1 follows it in y
    final History history = HistoryDsl.history("""
        T1 s0 a(y,1) a(z,2)
        T3 s1 a(z,3)
        T7 s2 a(y,6)
        T11 s2 a(y,10) a(z,11)
        T12 s3 r(y,[10,6,1]) r(z,[2,3,11])
        """);
    // When
    final List<Anomaly> anomalies = WholeHistoryCheck.check(history,
        CheckOptions.defaults().withLevels(Set.of(Level.SER, Level.PL2))).anomalies();
    // Then
    final Anomaly a = anomalies.stream().filter(x -> x.explanation().contains("Adya's direct serialization graph"))
        .findFirst().orElseThrow(() -> new AssertionError(anomalies));
    assertTrue(a.explanation().contains("These edges form a cycle of Adya's direct serialization graph, each key's "
        + "version order being the order of its lists (no session order)."), a.explanation());
  }

  @Test
  void shouldLabelTheEdgesOfTheJsonReportAndTheDotGraphAsTheListsGiveThem() {
    // Given: Elle's G0; the engine's G1c at PL2/RR named T2's append after T1's 1 a read (WR)
    final io.isowatch.core.check.CheckResult r = WholeHistoryCheck.check(HistoryDsl.history(read("elle-g0.hist")),
        CheckOptions.defaults().withLevels(Set.of(Level.PL2, Level.RR)));
    // When
    final String json = io.isowatch.core.report.JsonReport.toJson(r);
    final String dot = io.isowatch.core.report.DotWriter.render(0, r.anomalies().get(0));
    // Then: every edge of every anomaly is a WW between the appenders, as x=[1,2] and y=[2,1] give it
    assertFalse(json.contains("\"WR\""), json);
    assertTrue(json.contains("\"WW\""), json);
    assertFalse(dot.contains("WR"), dot);
    assertTrue(dot.contains("WW"), dot);
  }

  @Test
  void shouldTellAnUnobservedAppendAsComingAfterTheLatestListAndLabelItWw() {
    // Both edges shown are WW, so the cycle is G0, as Elle reports it (session 12; it was named
    // G-single / NonMonotonicRead after the engine's RW and WR edges before)
    final Anomaly a = first("elle-unobserved-write");
    assertEquals("""
        Let:
          W2 = [a(x,2) a(y,2)] (session p1, committed, line 5)
          W1 = [a(x,1) a(y,1)] (session p0, committed, line 4)
        Then:
          - W2 < W1, because W1 appended 1 to y, which no read shows: y=[2] is the latest version of y any read shows, ending in W2's 2, and every append no read shows comes after it;
          - W1 < W2, because W2 appended 2 to x right after W1's 1 (the order of x every read is a prefix of: [1,2]).
        However, that makes W2 precede itself: a cycle, so no order of these transactions explains the lists the reads returned. This violates SSER, SER and SI. (G0)
        """ + LEGEND, a.explanation());
    assertEquals(List.of(new Edge("W2", "W1", EdgeKind.WW, "y", 2L), new Edge("W1", "W2", EdgeKind.WW, "x", 1L)), a.cycle());
  }

  @Test
  void shouldTellALostAppendWithTheListsBothRead() {
    assertEquals("""
        Let:
          T0 = [a(x,0)] (session p0, committed, line 3)
          T1 = [r(x,[0]) a(x,1)] (session p1, committed, line 4)
          T2 = [r(x,[0]) a(x,2)] (session p2, committed, line 5)
        Then:
          - T1 read x=[0] and then appended 1, and T2 read x=[0] and then appended 2;
          - an append builds on the version of the key its transaction saw, or else on the version right before its element, and SI, SER and SSER let no other append come in between: each must directly follow x=[0] in the order of x, which is impossible for two;
          - whichever appended second built on a version that was no longer the latest: if T1 came first, then T1 < T2 (WW) and T2 < T1 (T2 built on x=[0], which T1's append follows), and symmetrically.
        So one of the two appends was lost (the Divergence pattern, MTC Definition 10). This violates SSER, SER and SI. (G-single, LostUpdate)
        """ + LEGEND, first("elle-lost-update").explanation());
  }

  @Test
  void shouldLabelTheEdgesOfALostAppendAsTheListsGiveThemWhenOnlyOneOfTheTwoRead() {
    // Given: TA read [0] and appended 3; TB only appended 2, right after 0; the final list puts 2 before 3
    final History history = HistoryDsl.history("""
        T0 s0 a(x,0)
        TA s1 r(x,[0]) a(x,3)
        TB s2 a(x,2)
        TR s3 r(x,[0,2,3])
        """);
    final Map<String, Transaction> byId = new HashMap<>();
    history.transactions().forEach(t -> byId.put(t.id(), t));
    // When
    final Anomaly a = WholeHistoryCheck.check(history, CheckOptions.defaults()).anomalies().stream()
        .filter(x -> "LostUpdate".equals(x.name())).findFirst().orElseThrow();
    // Then: WW from the appender TB, RW from the reader TA; no read of TB is claimed
    assertEquals(List.of(new Edge("TB", "TA", EdgeKind.WW, "x", 2L), new Edge("TA", "TB", EdgeKind.RW, "x", 0L)), a.cycle());
    assertOnlyReadsOfTheHistory(a.explanation(), byId);
    assertTrue(a.explanation().contains("TB appended 2 to x building on x=[0]"), a.explanation());
  }

  @Test
  void shouldClaimOnlyReadsTheHistoryHasOnRandomListAppendHistories() {
    // Given: small random executions with stale snapshots (the cycles of every kind), aborts and
    // unobserved appends; -Dseed and -Dhistories to vary
    final java.util.Random random = new java.util.Random(Long.getLong("seed", 14));
    final int histories = Integer.getInteger("histories", 500);
    int explained = 0;
    for (int n = 0; n < histories; n++) {
      final History history = randomHistory(random);
      final Map<String, Transaction> byId = new HashMap<>();
      history.transactions().forEach(t -> byId.put(t.id(), t));
      for (final CheckOptions options : List.of(CheckOptions.defaults(),
          CheckOptions.defaults().withLevels(Set.of(Level.PL2, Level.RR)))) {
        // When
        for (final Anomaly a : WholeHistoryCheck.check(history, options).anomalies()) {
          // Then
          assertOnlyReadsOfTheHistory(a.explanation(), byId);
          for (final Edge e : a.cycle()) {
            if (e.kind() == EdgeKind.WR) {
              assertTrue(readEnding(byId.get(e.to()), e.key(), e.value()), () -> "WR " + e + " in " + a.explanation());
            } else if (e.kind() == EdgeKind.RW) {
              assertTrue(readEnding(byId.get(e.from()), e.key(), e.value()), () -> "RW " + e + " in " + a.explanation());
            }
          }
          explained++;
        }
      }
    }
    assertTrue(explained > histories / 10, "too few anomalies to say anything: " + explained);
  }

  /** Transactions reading a snapshot (the latest, or an older one) plus their own appends. */
  private static History randomHistory(final java.util.Random random) {
    final int count = 2 + random.nextInt(5);
    final List<Map<String, List<Long>>> states = new ArrayList<>();
    states.add(new HashMap<>());
    final List<Transaction> txns = new ArrayList<>();
    long next = 1;
    for (int i = 0; i < count; i++) {
      final Map<String, List<Long>> snapshot = states.get(random.nextInt(3) == 0 ? random.nextInt(states.size()) : states.size() - 1);
      final Map<String, List<Long>> own = new HashMap<>();
      final List<Op> ops = new ArrayList<>();
      for (int o = 0, size = 1 + random.nextInt(3); o < size; o++) {
        final String key = random.nextBoolean() ? "x" : "y";
        if (random.nextBoolean()) {
          own.computeIfAbsent(key, k -> new ArrayList<>()).add(next);
          ops.add(Op.append(key, next++));
        } else {
          final List<Long> seen = new ArrayList<>(snapshot.getOrDefault(key, List.of()));
          seen.addAll(own.getOrDefault(key, List.of()));
          ops.add(Op.readList(key, seen));
        }
      }
      final boolean aborted = random.nextInt(10) == 0;
      final Map<String, List<Long>> after = new HashMap<>(states.get(states.size() - 1));
      if (!aborted) {
        own.forEach((k, vs) -> {
          final List<Long> list = new ArrayList<>(after.getOrDefault(k, List.of()));
          list.addAll(vs);
          after.put(k, list);
        });
      }
      states.add(after);
      txns.add(new Transaction("T" + (i + 1), "s" + random.nextInt(3), Transaction.NO_SEQ,
          aborted ? io.isowatch.core.history.TxnStatus.ABORTED : io.isowatch.core.history.TxnStatus.COMMITTED,
          Transaction.NO_TIME, Transaction.NO_TIME, ops, null, null, i + 1));
    }
    return new History(txns);
  }

  private static final String LEGEND = ListAppendCheck.LEGEND.substring(1);

  private static Anomaly first(final String name) {
    final List<Anomaly> anomalies = WholeHistoryCheck.check(HistoryDsl.history(read(name + ".hist")), CheckOptions.defaults()).anomalies();
    assertFalse(anomalies.isEmpty(), name);
    return anomalies.get(0);
  }

  /** Every "X read ..." names a read X has in the history, with that key and that list. */
  private static void assertOnlyReadsOfTheHistory(final String explanation, final Map<String, Transaction> byId) {
    final Map<String, String> alias = new HashMap<>();
    final List<String> claims = new ArrayList<>();
    for (final String line : explanation.split("\n")) {
      final Matcher let = LET.matcher(line);
      if (let.find()) {
        alias.put(let.group(1), let.group(2) != null ? let.group(2) : let.group(1));
        continue;
      }
      claims.add(line);
    }
    if (alias.isEmpty()) { // an explanation without Let lines names transactions by their ids
      byId.keySet().forEach(id -> alias.put(id, id));
    }
    final Pattern word = Pattern.compile("\\bread\\b");
    for (final String line : claims) {
      final Matcher m = word.matcher(line);
      while (m.find()) {
        final String before = line.substring(0, m.start());
        if (NOUN.matcher(before).find() || line.startsWith(" dependenc", m.end())) {
          continue;
        }
        final String subject = lastAlias(before, alias);
        assertNotNull(subject, () -> "a read claim without a transaction in: " + line + "\n" + explanation);
        final Transaction t = byId.get(alias.get(subject));
        final String rest = line.substring(m.end() + 1);
        final Matcher list = LIST_CLAIM.matcher(rest);
        final Matcher ending = ENDING.matcher(rest);
        final Matcher empty = EMPTY.matcher(rest);
        final boolean ok;
        if (list.find()) {
          ok = t.ops().stream().anyMatch(op -> (op.isListRead() || op.isRead()) && op.key().equals(list.group(1))
              && shown(op).equals(list.group(2)));
        } else if (ending.find()) {
          ok = readEnding(t, ending.group(1), Long.valueOf(ending.group(2)));
        } else if (empty.find()) {
          ok = readEnding(t, empty.group(1), null);
        } else {
          ok = false;
        }
        assertTrue(ok, () -> subject + " (" + t + ") has no such read: " + line + "\n" + explanation);
      }
    }
  }

  private static String lastAlias(final String before, final Map<String, String> alias) {
    String found = null;
    for (final String token : before.split("[\\s,;:()]+")) {
      if (alias.containsKey(token)) {
        found = token;
      }
    }
    return found;
  }

  private static boolean readEnding(final Transaction t, final String key, final Long last) {
    if (t == null) {
      return false;
    }
    for (final Op op : t.ops()) {
      if (op.key().equals(key) && (op.isListRead() || (op.isRead() && op.value() == null))) {
        final List<Long> l = op.isListRead() ? op.elements() : List.of();
        if (java.util.Objects.equals(l.isEmpty() ? null : l.get(l.size() - 1), last)) {
          return true;
        }
      }
    }
    return false;
  }

  private static String shown(final Op op) {
    return op.isListRead() ? op.elements().toString().replace(" ", "") : "null";
  }

  private static String read(final String file) {
    try (InputStream in = ListAppendExplanationTest.class.getResourceAsStream(CORPUS + file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (final IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
