package io.isowatch.cli.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.isowatch.cli.testkit.CheckCommand;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.IsoWatchStreamsConfig;
import io.isowatch.streams.processor.VerdictRecords;
import io.isowatch.streams.testkit.CheckerDriver;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * DLQ fuzz (issue 10, item 3): 10,000 malformed input records of eleven kinds interleaved with a
 * valid history of the same tenant, through the topology with the real registry. Nothing crashes;
 * every record of a dead-letter kind produces exactly one dead letter (no valid record does), every
 * record of a finding kind one typed finding in the tenant's verdict; and the anomalies published
 * are those {@code isowatch check} reports on the valid history alone.
 */
class DeadLetterFuzzTopologyTest {
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final String TENANT = "acme";
  private static final String TOPIC = Topics.defaults().txnEvents().name();
  /** Producer limit of the test (so an oversized record is 40 KB, not megabytes). */
  private static final int MAX_REQUEST_BYTES = 32_768;

  /** The malformed kinds, what becomes of them, and how many of each are sent. */
  enum Kind {
    WRONG_MAGIC_BYTE(1_200), UNKNOWN_SCHEMA_ID(1_000), TRUNCATED_BODY(1_200), TOMBSTONE(1_000),
    OTHER_RECORD_TYPE(1_000), OVERSIZED(300), KEY_NOT_TENANT(1_000),
    END_BEFORE_START(800), WRITE_WITHOUT_VALUE(1_000), DUPLICATE_ID_OTHER_CONTENT(800), EMPTY_OPS(700);

    final int count;

    Kind(final int count) {
      this.count = count;
    }

    boolean deadLettered() {
      return ordinal() <= KEY_NOT_TENANT.ordinal();
    }
  }

  @TempDir Path dir;

  @Test
  void shouldDeadLetterOrFindEachMalformedRecordAndReportWhatCheckReportsWhenFuzzed() throws Exception {
    // Given: a valid history with injected anomalies, and what `isowatch check` says of it.
    final History history = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults()
        .withSeed(11).withTransactions(2_000).withSessions(10).withKeys(60)
        .withInjections(Injection.parseList("LostUpdate:3,WriteSkew:2,FracturedRead:2,ThinAirRead:1")));
    final JsonNode check = CheckCommand.json(history, dir.resolve("history.jsonl"));
    final List<TransactionEvent> valid = CheckerDriver.events(TENANT, history);
    final List<Kind> malformed = new ArrayList<>();
    for (final Kind k : Kind.values()) {
      malformed.addAll(Collections.nCopies(k.count, k));
    }
    final Random random = new Random(20261125);
    Collections.shuffle(malformed, random);
    assertEquals(10_000, malformed.size());

    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), dir.resolve("state"), Map.of(
        // The whole history waits for the final flush: its order is check's, whatever the arrivals.
        IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, "3600000",
        "kafka.producer.max.request.size", Integer.toString(MAX_REQUEST_BYTES)))) {
      final Fuzzer fuzzer = new Fuzzer(new AvroSerdes(AvroSerdeConfig.development(REGISTRY.url())));
      final Map<Long, Kind> kindAt = new TreeMap<>();
      long offset = 0;
      int next = 0;
      // When: after each valid event, five malformed records (a duplicate reuses the id just sent).
      for (final TransactionEvent event : valid) {
        checker.pipeRaw(bytes(TENANT), fuzzer.valid(event));
        offset++;
        for (int i = 0; i < 5 && next < malformed.size(); i++, next++) {
          final Kind kind = malformed.get(next);
          final byte[][] record = fuzzer.malformed(kind, event, next);
          checker.pipeRaw(record[0], record[1]);
          kindAt.put(offset++, kind);
        }
      }
      assertEquals(malformed.size(), next, "every malformed record was sent");
      checker.flushIdleTenants();
      checker.publishVerdicts();

      // Then: one dead letter per record of a dead-letter kind, and none for anything else.
      final Map<Kind, Integer> letters = new EnumMap<>(Kind.class);
      for (final DeadLetter d : checker.deadLetters()) {
        final Kind kind = kindAt.get(d.getSourceOffset());
        assertTrue(kind != null && kind.deadLettered(), "dead letter of " + kind + ": " + d.getErrorMessage());
        letters.merge(kind, 1, Integer::sum);
        if (kind == Kind.OVERSIZED) {
          assertNull(d.getRawValue(), "an oversized record's bytes are not copied");
        }
      }
      for (final Kind k : Kind.values()) {
        assertEquals(k.deadLettered() ? k.count : 0, letters.getOrDefault(k, 0), k.name());
      }
      // ... one typed finding per record of a finding kind ...
      final List<TenantVerdict> verdicts = checker.verdicts();
      final TenantVerdict verdict = verdicts.get(verdicts.size() - 1);
      final Map<String, Long> findings = verdict.getCounts().getFindingsByKind();
      assertEquals((long) Kind.END_BEFORE_START.count, findings.get("END_BEFORE_START"), findings.toString());
      assertEquals((long) Kind.WRITE_WITHOUT_VALUE.count, findings.get(VerdictRecords.MALFORMED_TRANSACTION));
      assertEquals((long) Kind.DUPLICATE_ID_OTHER_CONTENT.count, findings.get("DUPLICATE_TXN_ID"));
      // ... empty transactions are valid by the contract: checked, with no effect on the anomalies
      // (the engine counts every event it takes, a duplicate too, as check counts every line) ...
      assertEquals(valid.size() + Kind.END_BEFORE_START.count + Kind.EMPTY_OPS.count
          + Kind.DUPLICATE_ID_OTHER_CONTENT.count, verdict.getCounts().getTransactionsChecked());
      // ... and the anomalies are exactly check's on the valid history.
      assertEquals(CheckCommand.anomalyNames(TENANT, check), CheckCommand.names(checker.anomalies()));
    }
  }

  /** Builds the raw records: valid events in the registry's wire format, and each malformed kind. */
  private static final class Fuzzer {
    private final Serializer<TransactionEvent> events;
    private final Serializer<DeadLetter> letters;

    Fuzzer(final AvroSerdes serdes) {
      this.events = serdes.valueSerde(TransactionEvent.class).serializer();
      this.letters = serdes.valueSerde(DeadLetter.class).serializer();
    }

    byte[] valid(final TransactionEvent e) {
      return events.serialize(TOPIC, e);
    }

    /** Key and value of a malformed record of {@code kind}; {@code last} is the valid event sent just before. */
    byte[][] malformed(final Kind kind, final TransactionEvent last, final int n) {
      final byte[] key = bytes(TENANT);
      return switch (kind) {
        case WRONG_MAGIC_BYTE -> {
          final byte[] v = valid(fresh(n).build());
          v[0] = (byte) (1 + n % 255);
          yield new byte[][] {key, v};
        }
        case UNKNOWN_SCHEMA_ID -> {
          final byte[] v = valid(fresh(n).build());
          ByteBuffer.wrap(v).putInt(1, 900_000 + n % 50);
          yield new byte[][] {key, v};
        }
        case TRUNCATED_BODY -> {
          final byte[] v = valid(fresh(n).build());
          yield new byte[][] {key, Arrays.copyOf(v, 5 + (v.length - 5) / 2)};
        }
        case TOMBSTONE -> new byte[][] {key, null};
        case OTHER_RECORD_TYPE -> new byte[][] {key, letters.serialize(Topics.defaults().deadLetters().name(),
            DeadLetter.newBuilder().setSourceTopic(TOPIC).setSourcePartition(0).setSourceOffset(n)
                .setSourceTimestampMillis(0).setErrorClass("x").setDeadLetteredAtMicros(0).build())};
        case OVERSIZED -> new byte[][] {key, valid(fresh(n).setLevel("x".repeat(MAX_REQUEST_BYTES + 8_000)).build())};
        case KEY_NOT_TENANT -> new byte[][] {bytes("other-" + n % 7), valid(fresh(n).build())};
        case END_BEFORE_START -> new byte[][] {key, valid(fresh(n).setStartMicros(5_000L).setEndMicros(4_000L).build())};
        case WRITE_WITHOUT_VALUE -> new byte[][] {key, valid(fresh(n)
            .setOps(List.of(new Op(OpType.READ, "fz-" + n, 0L, null), new Op(OpType.WRITE, "fz-" + n, null, null))).build())};
        case DUPLICATE_ID_OTHER_CONTENT -> {
          final List<Op> ops = new ArrayList<>(last.getOps());
          ops.add(new Op(OpType.READ, "fz-dup-" + n, 0L, null));
          yield new byte[][] {key, valid(TransactionEvent.newBuilder(last).setOps(ops).build())};
        }
        case EMPTY_OPS -> new byte[][] {key, valid(fresh(n).setOps(List.of()).build())};
      };
    }

    /**
     * A transaction of its own: fresh id and session, times before the history's, and a write of a
     * fresh key that nobody reads, so that it adds no dependency to the valid history.
     */
    private static TransactionEvent.Builder fresh(final int n) {
      return TransactionEvent.newBuilder().setTenant(TENANT).setSession("fz-s" + n).setSeq(0).setTxn("fz-" + n)
          .setStatus(io.isowatch.schemas.TxnStatus.COMMITTED).setStartMicros(1L).setEndMicros(2L)
          .setOps(List.of(new Op(OpType.READ, "fz-" + n, 0L, null), new Op(OpType.WRITE, "fz-" + n, 1L, null)));
    }
  }

  private static byte[] bytes(final String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
