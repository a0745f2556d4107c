package io.isowatch.streams;

import static io.isowatch.streams.testkit.PublishedAnomalies.expectedRecords;
import static io.isowatch.streams.testkit.PublishedAnomalies.fed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.History;
import io.isowatch.core.listappend.ListAppendCheck;
import io.isowatch.core.online.ListAppendOnlineChecker;
import io.isowatch.core.oracle.ListAppendHistories;
import io.isowatch.core.testkit.HistoryDsl;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.LevelVerdict;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.streams.testkit.CheckerDriver;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import io.isowatch.streams.processor.TenantKey;
import io.isowatch.streams.processor.TenantProgress;
import java.nio.file.Path;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * List-append tenants through the whole topology (docs/list-append.md, "Online"): whatever the
 * arrival order and the duplicates, the final verdicts are {@code isowatch check}'s, every anomaly
 * check reports is published, and nothing published violates a level check finds satisfied.
 */
class ListAppendTopologyTest {
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();
  private static final int HISTORIES = 40;

  @TempDir Path stateDir;

  @Test
  void shouldEndWithCheckVerdictsAndAnomaliesWhenListAppendTenantsArriveShuffledWithDuplicates() {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir)) {
      // Given: one random list-append history per tenant, arriving shuffled with a fifth twice
      final Random random = new Random(14);
      final Map<String, History> histories = new TreeMap<>();
      final List<TransactionEvent> arrivals = new ArrayList<>();
      for (int n = 0; n < HISTORIES; n++) {
        final String tenant = "la-" + n;
        final History h = ListAppendHistories.random(random);
        histories.put(tenant, h);
        for (final TransactionEvent e : CheckerDriver.events(tenant, h)) {
          arrivals.add(e);
          if (random.nextInt(5) == 0) {
            arrivals.add(e);
          }
        }
      }
      Collections.shuffle(arrivals, random);
      // When
      checker.pipe(arrivals);
      checker.flushIdleTenants();
      checker.publishVerdicts();
      // Then
      final Map<String, Map<String, Anomaly>> published = standing(checker.anomalies());
      final Map<String, TenantVerdict> verdicts = new HashMap<>();
      checker.verdicts().forEach(v -> verdicts.put(v.getTenant(), v));
      int violated = 0;
      for (final Map.Entry<String, History> e : histories.entrySet()) {
        final String tenant = e.getKey();
        final History h = fed(tenant, e.getValue());
        final String why = tenant + "\n" + HistoryDsl.format(h);
        final CheckResult want = ListAppendCheck.check(h, CheckOptions.defaults());
        final Map<String, String> got = levels(verdicts.get(tenant));
        assertEquals(levels(want), got, why);
        final Map<String, Anomaly> mine = published.getOrDefault(tenant, Map.of());
        for (final Anomaly a : expectedRecords(tenant,
            ListAppendCheck.check(ListAppendOnlineChecker.canonical(h), CheckOptions.defaults()))) {
          assertTrue(mine.containsKey(a.getUniqueId()), why + "\nnot published: " + a.getExplanation());
        }
        for (final Anomaly a : mine.values()) {
          for (final var l : a.getViolates()) {
            final String level = l.toString();
            assertFalse("SATISFIED".equals(got.get(level)), why + "\npublished, but check satisfies " + level + ": "
                + a.getExplanation());
          }
        }
        violated += got.containsValue("VIOLATED") ? 1 : 0;
      }
      assertTrue(violated >= HISTORIES / 4, "violated tenants: " + violated);
    }
  }

  @Test
  void shouldRebuildAListAppendTenantFromItsInputsWithoutRepublishingAfterARestart() {
    // Given: a first run publishes a lost update; what it wrote to its stores' changelogs is kept
    final String tenant = "la-restart";
    final String prefix = IsoWatchStreamsConfig.APPLICATION_ID_DEFAULT + "-";
    final Map<String, String> noLimit = Map.of(IsoWatchStreamsConfig.CHECK_HORIZON_TRANSACTIONS_CONFIG, "-1");
    final History h = HistoryDsl.history("""
        T1 s1 r(x,[]) a(x,1) @10..20
        T2 s2 r(x,[]) a(x,2) @12..22
        T3 s3 r(x,[1,2]) @30..40
        T4 s4 r(y,[]) a(y,3) @50..60
        T5 s5 r(y,[]) a(y,4) @52..62
        T6 s6 r(y,[3,4]) @70..80
        """);
    final List<TransactionEvent> events = CheckerDriver.events(tenant, h);
    final List<KeyValue<TenantKey, byte[]>> inputs;
    final List<KeyValue<String, TenantProgress>> progress;
    final List<KeyValue<TenantKey, Long>> publishedIds;
    final List<String> before;
    try (CheckerDriver first = new CheckerDriver(REGISTRY.url(), stateDir, noLimit)) {
      first.pipe(events.subList(0, 3));
      first.flushIdleTenants();
      final List<Anomaly> published1 = first.anomalies();
      before = published1.stream().map(Anomaly::getUniqueId).toList();
      assertEquals(List.of("LostUpdate"), published1.stream().map(Anomaly::getName).toList());
      inputs = changelog(first, prefix + Stores.TENANT_TRANSACTIONS, TenantKey.serde(), Serdes.ByteArray());
      progress = changelog(first, prefix + Stores.TENANT_PROGRESS, Serdes.String(), TenantProgress.serde());
      publishedIds = changelog(first, prefix + Stores.PUBLISHED_ANOMALIES, TenantKey.serde(), Serdes.Long());
    }
    try (CheckerDriver second = new CheckerDriver(REGISTRY.url(), stateDir.resolve("second"), noLimit)) {
      // The driver does not restore from changelogs; do what Kafka Streams' restoration does.
      inputs.forEach(kv -> second.driver().<TenantKey, byte[]>getKeyValueStore(Stores.TENANT_TRANSACTIONS)
          .put(kv.key, kv.value));
      progress.forEach(kv -> second.driver().<String, TenantProgress>getKeyValueStore(Stores.TENANT_PROGRESS)
          .put(kv.key, kv.value));
      publishedIds.forEach(kv -> second.driver().<TenantKey, Long>getKeyValueStore(Stores.PUBLISHED_ANOMALIES)
          .put(kv.key, kv.value));
      // When: the rest arrives after the restart
      second.pipe(events.subList(3, events.size()));
      second.flushIdleTenants();
      second.publishVerdicts();
      // Then: the engine was rebuilt from the stored inputs: only the new lost update is published,
      // and the verdict counts the whole history, as check does
      final List<Anomaly> anomalies = second.anomalies();
      assertEquals(1, anomalies.size(), anomalies.toString());
      assertFalse(before.contains(anomalies.get(0).getUniqueId()));
      assertEquals(List.of("T4", "T5"), anomalies.get(0).getTransactions().stream().map(t -> t.getTxn()).sorted()
          .toList());
      final List<TenantVerdict> verdicts = second.verdicts();
      final TenantVerdict verdict = verdicts.get(verdicts.size() - 1);
      final CheckResult want = ListAppendCheck.check(fed(tenant, h), CheckOptions.defaults());
      assertEquals(levels(want), levels(verdict));
      assertEquals(6L, verdict.getCounts().getTransactionsChecked());
      assertEquals(2L, verdict.getCounts().getAnomaliesByName().get("LostUpdate"));
    }
  }

  private static <K, V> List<KeyValue<K, V>> changelog(final CheckerDriver checker, final String store,
      final Serde<K> keys, final Serde<V> values) {
    return checker.driver().createOutputTopic(store + "-changelog", keys.deserializer(), values.deserializer())
        .readKeyValuesToList();
  }

  @Test
  void shouldCheckATenantOfReadsOfAbsentKeysAsListAppendOnceItsFirstAppendArrives() {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir)) {
      // Given: a read of an absent key (the same in both workloads), then list-append transactions
      final History h = HistoryDsl.history("""
          T1 s1 r(y,null) @1..2
          T2 s2 r(x,[]) a(x,1) @10..20
          T3 s3 r(x,[]) a(x,2) @12..22
          T4 s4 r(x,[1,2]) @30..40
          """);
      // When
      checker.pipe(CheckerDriver.events("switch", h));
      checker.flushIdleTenants();
      checker.publishVerdicts();
      // Then: checked as list-append, nothing counted as malformed
      final TenantVerdict v = checker.verdicts().get(0);
      assertNull(v.getCounts().getFindingsByKind().get(io.isowatch.streams.processor.VerdictRecords
          .MALFORMED_TRANSACTION), v.toString());
      assertEquals(4L, v.getCounts().getTransactionsChecked());
      assertEquals("VIOLATED", levels(v).get("SER"));
      assertEquals(Set.of("LostUpdate"), checker.anomalies().stream().map(Anomaly::getName).collect(Collectors.toSet()));
    }
  }

  /** Per tenant, the anomalies published and not retracted, by id; an id published twice fails. */
  private static Map<String, Map<String, Anomaly>> standing(final List<Anomaly> records) {
    final Map<String, Map<String, Anomaly>> out = new HashMap<>();
    for (final Anomaly a : records) {
      final Map<String, Anomaly> mine = out.computeIfAbsent(a.getTenant(), t -> new HashMap<>());
      if (a.getRetraction() != null) {
        assertTrue(mine.remove(a.getUniqueId()) != null, "retraction of an anomaly not standing: " + a);
      } else {
        assertNull(mine.put(a.getUniqueId(), a), "published twice: " + a);
      }
    }
    return out;
  }

  private static Map<String, String> levels(final TenantVerdict v) {
    final Map<String, String> out = new TreeMap<>();
    for (final LevelVerdict l : v.getLevels()) {
      out.put(l.getLevel().toString(), l.getVerdict().toString());
    }
    return out;
  }

  private static Map<String, String> levels(final CheckResult r) {
    final Map<String, String> out = new TreeMap<>();
    r.verdicts().forEach((l, v) -> out.put(l.name(), v.name()));
    return out;
  }
}
