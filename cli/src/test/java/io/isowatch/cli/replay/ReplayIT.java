package io.isowatch.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.cli.Main;
import io.isowatch.cli.Services;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.history.History;
import io.isowatch.core.testkit.HistoryDsl;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.topic.TopicSpec;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.replay.HistoryPublisher;
import io.isowatch.streams.testkit.EmbeddedKafka;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import io.isowatch.streams.testkit.JsonTrees;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code isowatch replay} end to end, in process: its verdicts, anomalies, findings and statistics
 * equal those of {@code isowatch check} on the same history, on the samples (file mode, which
 * starts its own broker and registry) and on the golden corpus (topic mode, every case a tenant of
 * one recorded topic on this class's broker).
 */
@Tag("integration")
class ReplayIT {
  @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final ObjectMapper JSON = new ObjectMapper();
  /** Fields that differ by nature: timing, source lines, prose that cites lines, seqs check leaves unset. */
  private static final Set<String> NOT_COMPARED = Set.of("seconds", "line", "lines", "explanation", "seq");

  @TempDir Path dir;

  @Test
  void shouldPrintWhatCheckPrintsWithTheSameExitCodeWhenReplayingTheSampleFiles() throws Exception {
    // Given: the samples, one violated (JSON), one satisfied (text).
    final Path lost = samples().resolve("lost-update.jsonl");
    final Path valid = samples().resolve("valid-ser.jsonl");

    // When
    final Cli checkLost = cli("check", "--json", lost.toString());
    final Cli replayLost = cli("replay", "--file", lost.toString(), "--json");
    final Cli checkValid = cli("check", valid.toString());
    final Cli replayValid = cli("replay", "--file", valid.toString(), "--quiet");

    // Then
    assertEquals(1, checkLost.exit(), checkLost.err());
    assertEquals(checkLost.exit(), replayLost.exit(), replayLost.err());
    assertEquals(comparable(JSON.readTree(checkLost.out())), comparable(JSON.readTree(replayLost.out())));
    assertEquals(0, checkValid.exit(), checkValid.err());
    assertEquals(checkValid.exit(), replayValid.exit(), replayValid.err());
    assertEquals(withoutSeconds(checkValid.out()), withoutSeconds(replayValid.out()));
    assertTrue(replayLost.err().contains("checking"), "progress on stderr: " + replayLost.err());
    assertEquals("", replayValid.err(), "--quiet");
  }

  @Test
  void shouldJudgeTheLostUpdateAgainstThePromiseWithTheLevelsTheTopologyDecidesWhenReplayingWithAPromise()
      throws Exception {
    // Given: the lost-update sample (SI, SER, SSER violated)
    final Path lost = samples().resolve("lost-update.jsonl");

    // When: replayed with a promise of PostgreSQL READ COMMITTED, then of REPEATABLE READ
    final Cli rc = cli("replay", "--file", lost.toString(), "--json", "--quiet", "--promise", "postgres:read-committed");
    final Cli rr = cli("replay", "--file", lost.toString(), "--quiet", "--promise", "postgres:repeatable-read");

    // Then: read committed allows it (exit 0); the promised levels the topology does not decide
    // yet are reported as not checked; repeatable read is broken (exit 1)
    assertEquals(0, rc.exit(), rc.out() + rc.err());
    final JsonNode promise = JSON.readTree(rc.out()).get("promise");
    assertEquals("KEPT", promise.get("outcome").asText(), promise.toString());
    assertEquals("SI", promise.get("weakerThan").asText(), promise.toString());
    for (final JsonNode l : promise.get("unchecked")) {
      assertTrue(!io.isowatch.streams.CarriedLevels.all().contains(io.isowatch.core.check.Level.valueOf(l.asText())),
          promise.toString());
    }
    assertEquals(1, rr.exit(), rr.out() + rr.err());
    assertTrue(rr.out().contains("  PROMISE BROKEN: SI VIOLATED\n"), rr.out());
  }

  @Test
  void shouldListExactlyWhatCheckListsWhenAnomaliesShareTheirTransactions() throws Exception {
    // Given: the one-line history of two thin-air reads of one transaction, and one where two
    // lost updates share a pair, two aborted reads a reader and writer, and two faulty reads of one
    // key a transaction: pairs the streaming checker once published as one
    final Path thinAir = dir.resolve("thin-air.jsonl");
    final Path shared = dir.resolve("shared.jsonl");
    write(thinAir, "T1 s1 r(x,5) r(y,7) @10..20\n");
    write(shared, """
        T1 s1 r(x,0) r(y,0) w(x,1) w(y,1) @10..20
        T2 s2 r(x,0) r(y,0) w(x,2) w(y,2) @15..30
        T3 s3 w(a,1) w(b,1) aborted @40..50
        T4 s4 r(a,1) r(b,1) @60..70
        T5 s5 w(c,1) r(c,2) r(c,2) @80..90
        """);
    for (final Path file : List.of(thinAir, shared)) {
      // When
      final Cli check = cli("check", "--json", file.toString());
      final Cli replay = cli("replay", "--file", file.toString(), "--json", "--quiet");

      // Then: the same anomalies, one by one, each with what tells it apart
      assertEquals(1, check.exit(), check.err());
      assertEquals(check.exit(), replay.exit(), replay.err());
      final JsonNode checked = JSON.readTree(check.out());
      assertEquals(comparable(checked), comparable(JSON.readTree(replay.out())), file.toString());
      final Set<String> distinct = new java.util.HashSet<>();
      checked.get("anomalies").forEach(a -> distinct.add(a.get("cycle").toString() + a.get("read")));
      assertEquals(checked.get("anomalies").size(), distinct.size(), checked.get("anomalies").toString());
    }
    assertEquals(2, JSON.readTree(cli("check", "--json", thinAir.toString()).out()).get("anomalies").size());
    assertEquals(6, JSON.readTree(cli("check", "--json", shared.toString()).out()).get("anomalies").size());
  }

  @Test
  void shouldChangeNoVerdictWhenOneEventOfTheReplayedFileLiesTenYearsAhead() throws Exception {
    // Given: a valid generated history with one transaction in the middle ten years ahead of the
    // other sessions (the replay's records carry the replay's clock, not the history's)
    final History valid = io.isowatch.core.gen.MtHistoryGenerator.generateHistory(
        io.isowatch.core.gen.GeneratorConfig.defaults().withTransactions(600).withKeys(20).withSessions(6).withSeed(10));
    final List<io.isowatch.core.history.Transaction> txns = new ArrayList<>(valid.transactions());
    final io.isowatch.core.history.Transaction broken = txns.get(txns.size() / 2);
    final long tenYears = 10L * 365 * 24 * 3600 * 1_000_000L;
    txns.set(txns.size() / 2, new io.isowatch.core.history.Transaction(broken.id(), broken.session(), broken.seq(),
        broken.status(), broken.start() + tenYears, broken.end() + tenYears, broken.ops(), broken.tenant(),
        broken.level(), broken.line()));
    final Path file = dir.resolve("ten-years-ahead.jsonl");
    try (Writer w = Files.newBufferedWriter(file)) {
      HistoryIO.write(new History(txns), HistoryFormat.JSONL, w);
    }

    // When
    final Cli check = cli("check", "--json", file.toString());
    final Cli replay = cli("replay", "--file", file.toString(), "--json", "--quiet");

    // Then: both SATISFIED, no anomaly, one FUTURE_EVENT_TIME finding naming it, nothing late
    assertEquals(0, check.exit(), check.out() + check.err());
    assertEquals(0, replay.exit(), replay.out() + replay.err());
    final JsonNode replayed = JSON.readTree(replay.out());
    assertEquals(JSON.readTree(check.out()).get("verdicts"), replayed.get("verdicts"));
    assertEquals(0, replayed.get("anomalies").size(), replay.out());
    final List<String> future = new ArrayList<>();
    final List<String> late = new ArrayList<>();
    replayed.get("findings").forEach(f -> {
      if ("FUTURE_EVENT_TIME".equals(f.get("kind").asText())) {
        future.add(f.get("txns").toString());
      } else if ("LATE_TRANSACTION".equals(f.get("kind").asText())) {
        late.add(f.get("txns").toString());
      }
    });
    assertEquals(List.of("[\"" + broken.id() + "\"]"), future, replayed.get("findings").toString());
    assertEquals(List.of(), late);
  }

  /** Every level, weakest first: the streaming checker decides them all since issue 12. */
  private static final String EVERY_LEVEL = "PL2,RC,RA,CC,PC,SI,RR,SER,SSER";

  @Test
  void shouldListWhatCheckListsAtEveryLevelWhenReplayingAWeakLevelFile() throws Exception {
    // Given: one history with a fractured read (RA), a causality violation (CC), a long fork (PC)
    // and a read that goes back (RC), on keys of their own, and a clean prefix of the same sessions
    final Path file = dir.resolve("weak.jsonl");
    write(file, """
        F1 s1 r(fx,0) w(fx,1) r(fy,0) w(fy,1) @10..20
        F2 s2 r(fx,0) r(fy,1) @30..40
        C1 s3 r(cx,0) w(cx,1) @50..60
        C2 s4 r(cx,1) r(cy,0) w(cy,1) @70..80
        C3 s5 r(cy,1) r(cx,0) @90..100
        L1 s1 r(lx,0) w(lx,1) @110..120
        L2 s2 r(ly,0) w(ly,1) @130..140
        L3 s3 r(lx,1) r(ly,0) @150..160
        L4 s4 r(ly,1) r(lx,0) @170..180
        M1 s5 r(mx,0) w(mx,1) @190..200
        M2 s6 r(mx,1) r(mx,0) @210..220
        """);

    // When
    final Cli check = cli("check", "--json", "--levels", EVERY_LEVEL, file.toString());
    final Cli replay = cli("replay", "--file", file.toString(), "--levels", EVERY_LEVEL, "--json", "--quiet");

    // Then: the same verdicts at every level, the same anomalies (the weak counterexamples included)
    assertEquals(1, check.exit(), check.err());
    assertEquals(check.exit(), replay.exit(), replay.err());
    final JsonNode checked = JSON.readTree(check.out());
    assertEquals(comparable(checked), comparable(JSON.readTree(replay.out())));
    final Set<String> names = new java.util.TreeSet<>();
    checked.get("anomalies").forEach(a -> names.add(a.get("name").asText()));
    assertTrue(names.containsAll(List.of("FracturedRead", "CausalityViolation", "NonMonotonicRead")), names.toString());
    assertEquals(9, checked.get("levelOrder").size(), checked.toString());
  }

  @Test
  void shouldDecideWhatCheckDecidesAtEveryLevelOnTheWeakCorpusWhenReplayingARecordedTopicPerTenant()
      throws Exception {
    // Given: each case of the weak-level corpus a tenant of one recorded topic
    final Path weak = corpus().resolveSibling("corpus-weak");
    final Map<String, Path> cases = new TreeMap<>();
    try (Stream<Path> files = Files.list(weak)) {
      for (final Path hist : files.filter(p -> p.toString().endsWith(".hist")).sorted().toList()) {
        final String name = hist.getFileName().toString().replace(".hist", "");
        if (Files.readString(weak.resolve(name + ".expected")).contains("initialValue")) {
          continue; // another initial value is another checker configuration; the main corpus covers it
        }
        final Path file = dir.resolve("weak-" + name + ".jsonl");
        try (Writer w = Files.newBufferedWriter(file)) {
          HistoryIO.write(HistoryDsl.history(Files.readString(hist)), HistoryFormat.JSONL, w);
        }
        cases.put(name, file);
      }
    }
    record("corpus-weak", cases);

    // When
    final Cli replay = cli("replay", "--topic", "corpus-weak", "--from-beginning", "--bootstrap",
        KAFKA.bootstrapServers(), "--registry", REGISTRY.url().toString(), "--json", "--quiet",
        "--grace-ms", "1000000000000", "--levels", EVERY_LEVEL);

    // Then: each tenant's report is that of `isowatch check --levels ...` on its file
    final JsonNode tenants = JSON.readTree(replay.out()).get("tenants");
    assertEquals(cases.keySet(), fieldNames(tenants), replay.err());
    for (final Map.Entry<String, Path> c : cases.entrySet()) {
      final Cli check = cli("check", "--json", "--levels", EVERY_LEVEL, c.getValue().toString());
      if (check.exit() == 2) {
        final JsonNode findings = tenants.get(c.getKey()).get("findings");
        assertTrue(findings.size() > 0, c.getKey() + ": " + check.err());
      } else {
        assertEquals(comparable(JSON.readTree(check.out())), comparable(tenants.get(c.getKey())), c.getKey());
      }
    }
    assertTrue(cases.size() >= 15, "cases: " + cases.keySet());
  }

  @Test
  void shouldDecideWhatCheckDecidesWhenReplayingListAppendFiles() throws Exception {
    // Given: the list-append sample and the list-append golden corpus (Elle's cases), as JSONL files
    final List<Path> files = new java.util.ArrayList<>();
    files.add(samples().resolve("list-append.jsonl"));
    final Path listCorpus = corpus().resolve("list-append");
    try (Stream<Path> cases = Files.list(listCorpus)) {
      for (final Path hist : cases.filter(p -> p.toString().endsWith(".hist")).sorted().toList()) {
        final Path file = dir.resolve(hist.getFileName().toString().replace(".hist", ".jsonl"));
        write(file, Files.readString(hist));
        files.add(file);
      }
    }
    int violated = 0;
    for (final Path file : files) {
      // When
      final Cli check = cli("check", "--json", file.toString());
      final Cli replay = cli("replay", "--file", file.toString(), "--json", "--quiet");

      // Then: the same exit code and verdicts, and every anomaly check lists is among those published
      assertEquals(check.exit(), replay.exit(), file + "\n" + check.out() + "\n" + replay.out() + replay.err());
      final JsonNode checked = JSON.readTree(check.out());
      final JsonNode replayed = JSON.readTree(replay.out());
      assertEquals(checked.get("verdicts"), replayed.get("verdicts"), file.toString());
      final Set<String> published = new java.util.HashSet<>();
      replayed.get("anomalies").forEach(a -> published.add(a.get("name").asText() + a.get("cycle")));
      for (final JsonNode a : checked.get("anomalies")) {
        assertTrue(published.contains(a.get("name").asText() + a.get("cycle")), file + ": " + a);
      }
      violated += check.exit() == 1 ? 1 : 0;
    }
    assertTrue(files.size() >= 20 && violated >= 15, files.size() + " files, " + violated + " violated");
  }

  @Test
  void shouldDecideMixedAsCheckDoesOnTheMixedCorpusWhenReplayingARecordedTopicPerTenant() throws Exception {
    // Given: each case of the mixed-level corpus (transactions declaring their levels) a tenant of
    // one recorded topic
    final Path mixed = corpus().resolveSibling("corpus-mixed");
    final Map<String, Path> cases = new TreeMap<>();
    try (Stream<Path> files = Files.list(mixed)) {
      for (final Path hist : files.filter(p -> p.toString().endsWith(".hist")).sorted().toList()) {
        final String name = hist.getFileName().toString().replace(".hist", "");
        final Map<String, String> declared = new java.util.HashMap<>();
        for (final String line : Files.readAllLines(mixed.resolve(name + ".expected"))) {
          if (line.startsWith("levels=")) {
            for (final String pair : line.substring("levels=".length()).split(",")) {
              declared.put(pair.substring(0, pair.indexOf(':')).trim(), pair.substring(pair.indexOf(':') + 1).trim());
            }
          }
        }
        final List<io.isowatch.core.history.Transaction> txns = new java.util.ArrayList<>();
        for (final io.isowatch.core.history.Transaction t : HistoryDsl.history(Files.readString(hist)).transactions()) {
          txns.add(new io.isowatch.core.history.Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(),
              t.end(), t.ops(), t.tenant(), declared.get(t.id()), t.line()));
        }
        final Path file = dir.resolve("mixed-" + name + ".jsonl");
        try (Writer w = Files.newBufferedWriter(file)) {
          HistoryIO.write(new io.isowatch.core.history.History(txns), HistoryFormat.JSONL, w);
        }
        cases.put(name, file);
      }
    }
    record("corpus-mixed", cases);

    // When
    final Cli replay = cli("replay", "--topic", "corpus-mixed", "--from-beginning", "--bootstrap",
        KAFKA.bootstrapServers(), "--registry", REGISTRY.url().toString(), "--json", "--quiet",
        "--grace-ms", "1000000000000", "--levels", "SER,MIXED");

    // Then: each tenant's report is that of `isowatch check --levels SER,MIXED` on its file, MIXED
    // verdict and counterexample included
    final JsonNode tenants = JSON.readTree(replay.out()).get("tenants");
    assertEquals(cases.keySet(), fieldNames(tenants), replay.err());
    int violated = 0;
    for (final Map.Entry<String, Path> c : cases.entrySet()) {
      final Cli check = cli("check", "--json", "--levels", "SER,MIXED", c.getValue().toString());
      final JsonNode checked = JSON.readTree(check.out());
      assertEquals(comparable(checked), comparable(tenants.get(c.getKey())), c.getKey());
      violated += checked.toString().contains("\"MIXED\":\"VIOLATED\"") ? 1 : 0;
    }
    assertTrue(cases.size() >= 9, "cases: " + cases.keySet());
    assertTrue(violated > 0, "no case violates MIXED");
  }

  /** Writes a history of the test language as a JSONL file. */
  private static void write(final Path file, final String dsl) throws IOException {
    try (Writer w = Files.newBufferedWriter(file)) {
      HistoryIO.write(HistoryDsl.history(dsl), HistoryFormat.JSONL, w);
    }
  }

  @Test
  void shouldDecideWhatCheckDecidesOnEveryGoldenCaseWhenReplayingARecordedTopicPerTenant() throws Exception {
    // Given: each corpus case as a JSONL file, checked by `isowatch check`; the cases grouped by
    // their options, each group recorded on a topic of its own with one tenant per case.
    final Map<List<String>, Map<String, Path>> groups = new LinkedHashMap<>();
    for (final String name : corpusCases()) {
      final Map<String, String> expected = expected(name);
      final List<String> options = new ArrayList<>();
      if (expected.containsKey("initialValue")) {
        options.addAll(List.of("--initial-value", expected.get("initialValue")));
      }
      if (expected.containsKey("rtSkewUs")) {
        options.addAll(List.of("--rt-skew-us", expected.get("rtSkewUs")));
      }
      if (expected.containsKey("maxAnomalies")) {
        options.addAll(List.of("--max-anomalies", expected.get("maxAnomalies")));
      }
      if (expected.containsKey("solverBudgetMs")) {
        final String ms = expected.get("solverBudgetMs");
        options.addAll(List.of("--solver-budget", "0".equals(ms) ? "0" : ms + "ms"));
      }
      final Path file = dir.resolve(name + ".jsonl");
      try (Writer w = Files.newBufferedWriter(file)) {
        HistoryIO.write(HistoryDsl.history(Files.readString(corpus().resolve(name + ".hist"))), HistoryFormat.JSONL, w);
      }
      groups.computeIfAbsent(options, o -> new TreeMap<>()).put(name, file);
    }
    int replayed = 0;
    int group = 0;
    for (final Map.Entry<List<String>, Map<String, Path>> g : groups.entrySet()) {
      final String topic = "corpus-" + group++;
      record(topic, g.getValue());

      // When
      final List<String> args = new ArrayList<>(List.of("replay", "--topic", topic, "--from-beginning",
          "--bootstrap", KAFKA.bootstrapServers(), "--registry", REGISTRY.url().toString(), "--json", "--quiet",
          // No case may be late, whatever its order: the corpus is about verdicts, not lateness.
          "--grace-ms", "1000000000000"));
      args.addAll(g.getKey());
      final Cli replay = cli(args.toArray(String[]::new));

      // Then: each tenant's report is that of `isowatch check` on its file.
      final JsonNode tenants = JSON.readTree(replay.out()).get("tenants");
      assertEquals(g.getValue().keySet(), fieldNames(tenants), replay.err());
      int worst = 0;
      for (final Map.Entry<String, Path> c : g.getValue().entrySet()) {
        final List<String> checkArgs = new ArrayList<>(List.of("check", "--json"));
        checkArgs.addAll(g.getKey());
        checkArgs.add(c.getValue().toString());
        final Cli check = cli(checkArgs.toArray(String[]::new));
        worst = Math.max(worst, check.exit());
        if (check.exit() == 2) {
          // Invalid input: check prints only the reasons; the replay reports them as findings.
          final JsonNode findings = tenants.get(c.getKey()).get("findings");
          assertTrue(findings.size() > 0 && check.err().contains(findings.get(0).get("kind").asText()),
              c.getKey() + ": " + check.err() + " vs " + findings);
        } else {
          assertEquals(comparable(JSON.readTree(check.out())), comparable(tenants.get(c.getKey())), c.getKey());
        }
        replayed++;
      }
      assertEquals(worst, replay.exit(), "the worst tenant's exit code: " + replay.err());
    }
    assertEquals(corpusCases().size(), replayed);
    // ... and the replays cleaned up after themselves: no topic of theirs is left.
    try (Admin admin = KAFKA.admin()) {
      final Set<String> left = admin.listTopics().names().get().stream()
          .filter(t -> t.startsWith("isowatch-replay-")).collect(Collectors.toSet());
      assertEquals(Set.of(), left);
      assertTrue(admin.listGroups().all().get().stream().noneMatch(l -> l.groupId().startsWith("isowatch-replay-")));
    }
  }

  /**
   * replay --file starts the checker before its publishing is done, with the end it predicts: event
   * i at offset i of the new topic's only partition. The publisher checks every acknowledgement, so
   * a topic that is not new (here: one record already in it) fails the replay instead of moving
   * its end.
   */
  @Test
  void shouldFailThePublishingWhenAnEventIsNotStoredAtItsIndexBecauseTheTopicWasNotNew() throws Exception {
    final TopicSpec<String, TransactionEvent> spec = Topics.defaults().txnEvents().withName("replay-not-new")
        .withPartitions(1).withReplication((short) 1);
    KAFKA.createTopics(List.of(spec, spec.withName("replay-new")));
    final History history;
    try (var in = Files.newInputStream(samples().resolve("valid-ser.jsonl"))) {
      history = HistoryIO.read(in, HistoryFormat.JSONL);
    }
    final List<TransactionEvent> events = HistoryPublisher.events(history, "t");
    final AvroSerdeConfig serde = AvroSerdeConfig.development(REGISTRY.url());
    final AtomicLong first = new AtomicLong();
    HistoryPublisher.publishToNewPartition(KAFKA.bootstrapServers(), serde, "replay-new", events, first);
    assertEquals(events.size(), first.get(), "a new topic: every event acknowledged at its index");

    HistoryPublisher.publish(KAFKA.bootstrapServers(), serde, spec.name(), events.subList(0, 1), new AtomicLong());
    final KafkaException e = assertThrows(KafkaException.class, () -> HistoryPublisher.publishToNewPartition(
        KAFKA.bootstrapServers(), serde, spec.name(), events, new AtomicLong()));
    assertTrue(e.getMessage().contains("event 0 was stored at partition 0 offset 1, not partition 0 offset 0"),
        e.getMessage());
  }

  /** Publishes each case's history through the producer path as a tenant named after the case. */
  private static void record(final String topic, final Map<String, Path> cases) throws Exception {
    final TopicSpec<String, TransactionEvent> spec = Topics.defaults().txnEvents().withName(topic).withReplication((short) 1);
    KAFKA.createTopics(List.of(spec));
    final List<TransactionEvent> events = new ArrayList<>();
    for (final Map.Entry<String, Path> c : cases.entrySet()) {
      final History history;
      try (var in = Files.newInputStream(c.getValue())) {
        history = HistoryIO.read(in, HistoryFormat.JSONL);
      }
      events.addAll(HistoryPublisher.events(history, c.getKey()));
    }
    HistoryPublisher.publish(KAFKA.bootstrapServers(), AvroSerdeConfig.development(REGISTRY.url()), topic, events,
        new AtomicLong());
  }

  private record Cli(int exit, String out, String err) {}

  private static Cli cli(final String... args) {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final picocli.CommandLine cl = Main.commandLine(Services.real());
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    final int exit = cl.execute(args);
    return new Cli(exit, out.toString(), err.toString());
  }

  /** The report without the fields that differ by nature ({@link #NOT_COMPARED}). */
  private static JsonNode comparable(final JsonNode report) {
    return JsonTrees.without(report, NOT_COMPARED);
  }

  private static String withoutSeconds(final String text) {
    return text.lines().filter(l -> !l.trim().startsWith("seconds")).collect(Collectors.joining("\n"));
  }

  private static Set<String> fieldNames(final JsonNode node) {
    final Set<String> names = new java.util.TreeSet<>();
    for (final Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    return names;
  }

  private static List<String> corpusCases() throws IOException {
    try (Stream<Path> files = Files.list(corpus())) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".hist"))
          .map(n -> n.substring(0, n.length() - ".hist".length())).sorted().toList();
    }
  }

  private static Map<String, String> expected(final String name) throws IOException {
    final Map<String, String> out = new TreeMap<>();
    for (final String line : Files.readAllLines(corpus().resolve(name + ".expected"))) {
      final String l = line.trim();
      if (!l.isEmpty() && !l.startsWith("#")) {
        final int eq = l.indexOf('=');
        out.put(l.substring(0, eq).trim(), l.substring(eq + 1).trim());
      }
    }
    return out;
  }

  private static Path corpus() {
    // The golden corpus lives with the core tests that check it offline (GoldenCorpusTest).
    return Path.of("..", "core", "src", "test", "resources", "corpus").toAbsolutePath().normalize();
  }

  private static Path samples() {
    return Path.of("..", "samples").toAbsolutePath().normalize();
  }
}
