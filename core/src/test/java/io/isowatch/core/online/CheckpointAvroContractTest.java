package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

/**
 * The body of a format-5 checkpoint is a contract any Avro tool can read: stock Avro, given
 * {@code Checkpoint.avsc}, decodes it to the end, finds the engine's state in it, writes it back
 * to the same bytes, and resolves it under a later schema that adds a field with a default (the
 * evolution rule of docs/segmentation.md, "Checkpoints").
 */
class CheckpointAvroContractTest {
  private static final OnlineOptions ONLINE = OnlineOptions.streaming(10)
      .withHorizon(Horizon.ofTransactions(300).withFilters(1 << 12, Horizon.MAX_FILTER_BITS));

  @Test
  void shouldBeDecodedByAStockGenericDatumReaderWithTheSchema() throws IOException {
    // Given: a checkpoint with listed anomalies, published ThinAirReads, findings and filters of several stages
    final OnlineChecker engine = engine("ThinAirRead:2");
    final byte[] bytes = engine.checkpoint();
    final Checkpoint expected = CheckpointReader.read(bytes);
    final Schema schema = schema("Checkpoint.avsc");

    // When
    final BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, CheckpointFormat.HEADER,
        bytes.length - CheckpointFormat.HEADER - CheckpointFormat.CHECKSUM, null);
    final GenericRecord record = new GenericDatumReader<GenericRecord>(schema).read(null, decoder);

    // Then: every byte of the body read, and the state is there
    assertTrue(decoder.isEnd(), "bytes left after the record");
    assertEquals(CheckpointFormat.VERSION, ByteBuffer.wrap(bytes).getInt(4));
    final List<String> names = strings(record.get("names"));
    final List<String> keys = new ArrayList<>();
    for (final Object key : (List<?>) record.get("keys")) {
      keys.add(names.get((Integer) ((GenericRecord) key).get("name")));
    }
    assertEquals(expected.keyNames(), keys);
    final List<?> segment = (List<?>) record.get("segment");
    assertEquals(expected.segment().size(), segment.size());
    assertEquals(expected.segment().retained(), record.get("retained"));
    final GenericRecord first = (GenericRecord) ((GenericRecord) segment.get(0)).get("txn");
    assertEquals(expected.segment().txns()[0].id(), first.get("id").toString());
    assertEquals(expected.segment().txns()[0].session(), names.get((Integer) first.get("session")));
    final GenericRecord summary = (GenericRecord) record.get("summary");
    assertEquals(expected.summary().cuts, summary.get("cuts"));
    assertEquals(expected.summary().anomalies.size(), ((List<?>) summary.get("anomalies")).size());
    assertTrue(!expected.summary().anomalies.isEmpty(), "no anomaly listed: the case is too weak");
    assertEquals(expected.summary().overwritten.stages().size(),
        ((List<?>) ((GenericRecord) summary.get("overwritten")).get("stages")).size());
    assertEquals(expected.findings().entries().size(), ((List<?>) record.get("findings")).size());
    assertEquals(expected.maxEnd(), record.get("maxEnd"));
    final GenericRecord thinAir = (GenericRecord) record.get("thinAirReads");
    assertEquals(2, ((List<?>) thinAir.get("reads")).size());
    assertEquals(3, ((List<?>) thinAir.get("violated")).size());
    assertEquals(expected.thinAirPublished().size(), ((List<?>) thinAir.get("reads")).size());

    // ... and a stock GenericDatumWriter writes the same bytes back
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(schema, GenericData.get()).write(record, encoder);
    encoder.flush();
    final byte[] body = new byte[bytes.length - CheckpointFormat.HEADER - CheckpointFormat.CHECKSUM];
    System.arraycopy(bytes, CheckpointFormat.HEADER, body, 0, body.length);
    assertArrayEquals(body, out.toByteArray());
  }

  @Test
  void shouldResolveUnderALaterSchemaThatAddsAFieldWithADefault() throws IOException {
    // Given: the current schema with one more optional field, as a later release would write it
    final byte[] bytes = engine().checkpoint();
    final String current = schema("Checkpoint.avsc").toString();
    final Schema later = new Schema.Parser().parse(current.substring(0, current.length() - 2)
        + ",{\"name\":\"addedLater\",\"type\":[\"null\",\"long\"],\"default\":null}]}");

    // When
    final GenericRecord record = new GenericDatumReader<GenericRecord>(schema("Checkpoint.avsc"), later).read(null,
        DecoderFactory.get().binaryDecoder(bytes, CheckpointFormat.HEADER,
            bytes.length - CheckpointFormat.HEADER - CheckpointFormat.CHECKSUM, null));

    // Then
    assertNull(record.get("addedLater"));
    assertEquals(CheckpointReader.read(bytes).maxEnd(), record.get("maxEnd"));
  }

  @Test
  void shouldKeepTheSchemaOfFormatSixAsPublished() throws IOException {
    // A change of Checkpoint.avsc is a new format version, with its own frozen schema (the reader
    // of the new version resolves the bodies of the older ones against their frozen schemas).
    assertEquals(6, CheckpointFormat.VERSION);
    assertEquals(schema("published/Checkpoint-v6.avsc"), CheckpointFormat.SCHEMA);
  }

  @Test
  void shouldRestoreAFormatFiveCheckpointAsTheSameEngineWhenItHoldsNoMixed() throws IOException {
    // Given: a format-5 checkpoint (the frozen v5 schema, whose Level ends at RR), made from a
    // format-6 one of an engine that decides the classic levels
    final OnlineChecker original = engine();
    final byte[] v6 = original.checkpoint();
    final byte[] v5 = CheckpointFormat.frame(5, reencode(v6, CheckpointFormat.SCHEMA,
        schema("published/Checkpoint-v5.avsc")), 0, CheckpointReader.read(v6).summary());

    // When
    final OnlineChecker restored = OnlineChecker.restore(CheckOptions.defaults(), ONLINE, v5);

    // Then: the same state, written back as format 6 with the same body
    assertEquals(original.result().verdicts(), restored.result().verdicts());
    assertEquals(original.result().anomalies(), restored.result().anomalies());
    assertArrayEquals(CheckpointPropertyTest.withoutTimings(v6), CheckpointPropertyTest.withoutTimings(
        restored.checkpoint()));
    assertEquals(6, ByteBuffer.wrap(restored.checkpoint()).getInt(4));
  }

  @Test
  void shouldResolveAFormatFourBodyUnderTheFormatFiveSchemaWithoutThinAirReads() throws IOException {
    // Given: a format-4 body (the frozen v4 schema: no retractable ThinAirReads), made from a format-5 one
    final byte[] v5 = engine().checkpoint();
    final Schema v4 = schema("published/Checkpoint-v4.avsc");
    final byte[] v4Body = reencode(v5, CheckpointFormat.SCHEMA, v4);

    // When: stock Avro resolves it under the format-5 schema
    final GenericRecord record = new GenericDatumReader<GenericRecord>(v4, CheckpointFormat.SCHEMA).read(null,
        DecoderFactory.get().binaryDecoder(v4Body, null));

    // Then
    assertNull(record.get("thinAirReads"));
    assertEquals(CheckpointReader.read(v5).maxEnd(), record.get("maxEnd"));
  }

  @Test
  void shouldRestoreAFormatFourCheckpointAndWriteFormatFiveFromThenOn() throws IOException {
    // Given: an engine's checkpoint written as format 4 (the body re-encoded under the frozen v4 schema)
    final OnlineChecker original = engine();
    final byte[] v5 = original.checkpoint();
    final byte[] v4 = CheckpointFormat.frame(4, reencode(v5, CheckpointFormat.SCHEMA,
        schema("published/Checkpoint-v4.avsc")), 0, CheckpointReader.read(v5).summary());

    // When
    final OnlineChecker restored = OnlineChecker.restore(CheckOptions.defaults(), ONLINE, v4);

    // Then: the same state (its next checkpoint is format 5), the same result
    assertEquals(CheckpointFormat.VERSION, ByteBuffer.wrap(restored.checkpoint()).getInt(4));
    assertEquals(original.result().verdicts(), restored.result().verdicts());
    assertEquals(original.result().anomalies(), restored.result().anomalies());
    assertEquals(CheckpointReader.read(v5).segment().size(), CheckpointReader.read(v4).segment().size());
  }

  @Test
  void shouldRestoreAFormatFourCheckpointAsTheSameEngineWhenItsLevelsAreClassic() throws IOException {
    // Given: a format-4 checkpoint (the frozen v4 schema, whose Level knows SSER, SER and SI),
    // made from a format-5 one of an engine that decides those levels only
    final OnlineChecker original = engine();
    final byte[] v5 = original.checkpoint();
    final Schema v4 = schema("published/Checkpoint-v4.avsc");
    final byte[] v4Bytes = CheckpointFormat.frame(4, reencode(v5, CheckpointFormat.SCHEMA, v4), 0,
        CheckpointReader.read(v5).summary());

    // When: stock Avro resolves the v4 body under the v5 schema, and the engine restores from it
    final GenericRecord record = new GenericDatumReader<GenericRecord>(v4, CheckpointFormat.SCHEMA).read(null,
        DecoderFactory.get().binaryDecoder(v4Bytes, CheckpointFormat.HEADER,
            v4Bytes.length - CheckpointFormat.HEADER - CheckpointFormat.CHECKSUM, null));
    final OnlineChecker restored = OnlineChecker.restore(CheckOptions.defaults(), ONLINE, v4Bytes);

    // Then: the same state, written back as format 5 with the same body
    assertEquals(CheckpointReader.read(v5).maxEnd(), record.get("maxEnd"));
    assertEquals(original.result().verdicts(), restored.result().verdicts());
    assertEquals(original.result().anomalies(), restored.result().anomalies());
    assertArrayEquals(CheckpointPropertyTest.withoutTimings(v5), CheckpointPropertyTest.withoutTimings(
        restored.checkpoint()));
    assertEquals(CheckpointFormat.VERSION, ByteBuffer.wrap(restored.checkpoint()).getInt(4));
  }

  @Test
  void shouldReadEveryFrozenFormatWhenResolvedUnderTheCurrentSchema() throws IOException {
    for (final String frozen : List.of("published/Checkpoint-v3.avsc", "published/Checkpoint-v4.avsc",
        "published/Checkpoint-v5.avsc")) {
      assertEquals(org.apache.avro.SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE,
          org.apache.avro.SchemaCompatibility.checkReaderWriterCompatibility(CheckpointFormat.SCHEMA, schema(frozen))
              .getType(), frozen);
    }
  }

  @Test
  void shouldResolveAFormatThreeBodyUnderTheFormatFourSchemaWithoutRuns() throws IOException {
    // Given: a format-3 body (the frozen v3 schema: no run-sets), made from a format-4 one
    final byte[] v4 = engine().checkpoint();
    final Schema v3 = schema("published/Checkpoint-v3.avsc");
    final byte[] v3Body = reencode(v4, CheckpointFormat.SCHEMA, v3);

    // When: stock Avro resolves it under the format-4 schema
    final GenericRecord record = new GenericDatumReader<GenericRecord>(v3, CheckpointFormat.SCHEMA).read(null,
        DecoderFactory.get().binaryDecoder(v3Body, null));

    // Then: the run-sets default to null (a format-3 body's filters hold every retired version)
    assertNull(((GenericRecord) record.get("summary")).get("runs"));
    assertEquals(CheckpointReader.read(v4).maxEnd(), record.get("maxEnd"));
  }

  @Test
  void shouldRestoreAFormatThreeCheckpointWithItsFiltersAsTheOverflowAndRunsFromThenOn() throws IOException {
    // Given: an engine whose retired versions all went to the filters (no runs), written as format 3
    final OnlineOptions filtersOnly = OnlineOptions.streaming(10).withHorizon(
        Horizon.ofTransactions(300).withFilters(1 << 12, Horizon.MAX_FILTER_BITS).withMaxRunBytes(0));
    final OnlineChecker original = new OnlineChecker(CheckOptions.defaults(), filtersOnly);
    final List<io.isowatch.core.history.Transaction> txns = MtHistoryGenerator.generateHistory(GeneratorConfig
        .defaults().withSeed(4).withTransactions(6_000).withSessions(5).withKeys(40)).transactions();
    txns.subList(0, 3_000).forEach(original::accept);
    assertTrue(original.cutForCheckpoint(), "no cut");
    final byte[] v4 = original.checkpoint();
    final byte[] v3 = CheckpointFormat.frame(3, reencode(v4, CheckpointFormat.SCHEMA,
        schema("published/Checkpoint-v3.avsc")), 0, CheckpointReader.read(v4).summary());
    assertTrue(original.retiredVersions() > 1_000 && original.retiredRuns() == 0);

    // When: restored under the default run cap, and fed the rest
    final OnlineOptions withRuns = OnlineOptions.streaming(10).withHorizon(
        Horizon.ofTransactions(300).withFilters(1 << 12, Horizon.MAX_FILTER_BITS));
    final OnlineChecker restored = OnlineChecker.restore(CheckOptions.defaults(), withRuns, v3);
    final long inFilters = restored.retiredVersions();
    txns.subList(3_000, txns.size()).forEach(restored::accept);
    assertTrue(restored.prune(), "nothing to prune");

    // Then: the filters kept what format 3 had, and what retired since is held in runs
    assertEquals(original.retiredVersions(), inFilters);
    assertTrue(restored.retiredExactVersions() > 1_000, "runs took " + restored.retiredExactVersions());
    assertTrue(restored.retiredRuns() > 0 && restored.retiredRuns() <= 2 * 40 * 5, restored.retiredRuns() + " runs");
    assertEquals(inFilters + restored.retiredExactVersions(), restored.retiredVersions());
    assertEquals(CheckpointFormat.VERSION, ByteBuffer.wrap(restored.checkpoint()).getInt(4));
  }

  @Test
  void shouldRoundTripTheRunSetsThroughAFormatFourCheckpoint() throws IOException {
    // Given: an engine whose retired versions are in runs, and one with a run cap of 3 (runs and overflow)
    for (final long runBytes : new long[] {Horizon.DEFAULT_MAX_RUN_BYTES, 3L * RetiredRuns.BYTES_PER_RUN}) {
      final OnlineOptions online = OnlineOptions.streaming(10).withHorizon(
          Horizon.ofTransactions(300).withFilters(1 << 12, Horizon.MAX_FILTER_BITS).withMaxRunBytes(runBytes));
      final OnlineChecker engine = new OnlineChecker(CheckOptions.defaults(), online);
      MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(4).withTransactions(3_000)
          .withSessions(5).withKeys(40)).transactions().forEach(engine::accept);
      assertTrue(engine.cutForCheckpoint(), "no cut");
      final byte[] bytes = engine.checkpoint();

      // When
      final OnlineChecker restored = OnlineChecker.restore(CheckOptions.defaults(), online, bytes);
      final GenericRecord record = new GenericDatumReader<GenericRecord>(CheckpointFormat.SCHEMA).read(null,
          DecoderFactory.get().binaryDecoder(bytes, CheckpointFormat.HEADER,
              bytes.length - CheckpointFormat.HEADER - CheckpointFormat.CHECKSUM, null));

      // Then: the same runs, versions and filters, the same bytes again, and stock Avro sees the runs
      assertTrue(engine.retiredRuns() > 0, "no runs");
      assertEquals(engine.retiredRuns(), restored.retiredRuns());
      assertEquals(engine.retiredExactVersions(), restored.retiredExactVersions());
      assertEquals(engine.retiredVersions(), restored.retiredVersions());
      assertEquals(engine.retiredFilterBytes(), restored.retiredFilterBytes());
      assertArrayEquals(CheckpointPropertyTest.withoutTimings(bytes),
          CheckpointPropertyTest.withoutTimings(restored.checkpoint()));
      final GenericRecord runs = (GenericRecord) ((GenericRecord) record.get("summary")).get("runs");
      assertEquals(engine.retiredVersions(), runs.get("versions"));
      long keys = 0;
      for (final String set : List.of("all", "other")) {
        for (final Object k : (List<?>) ((GenericRecord) runs.get(set)).get("keys")) {
          keys += ((List<?>) ((GenericRecord) k).get("bounds")).size() / 2;
        }
      }
      assertEquals(engine.retiredRuns(), keys);
      if (runBytes < 100) {
        assertTrue(engine.retiredFilterBytes() > 0, "the tiny cap sent nothing to the filters");
      }
    }
  }

  /** The body of {@code bytes} decoded with {@code from}, written with {@code to} (a prefix of its fields). */
  private static byte[] reencode(final byte[] bytes, final Schema from, final Schema to) throws IOException {
    final GenericRecord record = new GenericDatumReader<GenericRecord>(from).read(null,
        DecoderFactory.get().binaryDecoder(bytes, CheckpointFormat.HEADER,
            bytes.length - CheckpointFormat.HEADER - CheckpointFormat.CHECKSUM, null));
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(to, GenericData.get()).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  private static OnlineChecker engine() {
    return engine("LostUpdate:2,WriteSkew:2");
  }

  private static OnlineChecker engine(final String injections) {
    final OnlineChecker engine = new OnlineChecker(CheckOptions.defaults(), ONLINE);
    MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(4).withTransactions(3_000)
            .withSessions(5).withKeys(40).withInjections(Injection.parseList(injections)))
        .transactions().forEach(engine::accept);
    assertTrue(engine.cutForCheckpoint(), "no cut");
    return engine;
  }

  private static List<String> strings(final Object array) {
    final List<String> out = new ArrayList<>();
    for (final Object s : (List<?>) array) {
      out.add(s.toString());
    }
    return out;
  }

  private static Schema schema(final String resource) throws IOException {
    try (InputStream in = CheckpointAvroContractTest.class.getResourceAsStream(resource)) {
      return new Schema.Parser().parse(in);
    }
  }
}
