package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The checkpoint codecs side by side on the same engines in the same JVM (docs/benchmarks.md,
 * "Checkpoints: Avro against the hand-written codec"): the hand-written varint codec of format 2
 * ({@link LegacyCheckpointWriter}, {@link CheckpointReader}) and format 3, the Avro encoding of
 * {@code Checkpoint.avsc} by direct Encoder/Decoder calls ({@link CheckpointWriter}, {@link
 * CheckpointAvroReader}); and, as the measure of the alternative implementation, Avro's
 * {@code GenericDatumReader}/{@code GenericDatumWriter} over the same format-3 body (to and from
 * GenericRecords only, before any mapping to the engine's state, so a lower bound of what a
 * GenericRecord or SpecificRecord codec would cost). Encode is {@code checkpoint()} of a
 * checkpointable engine; decode is the codec's read to a {@link Checkpoint} (a restore adds the
 * same replay to both). Rounds alternate the codecs; medians are printed, with ratios.
 *
 * <p>Opt-in (tag {@code benchmark}): {@code mvn -o -B -pl streams-app test
 * -Dtest=CheckpointCodecBenchmark -Dsurefire.excludedGroups= -Dsurefire.failIfNoSpecifiedTests=false};
 * {@code -Disowatch.bench.checkpoint.large=false} leaves out the 10^6 cases.
 */
@Tag("benchmark")
class CheckpointCodecBenchmark {
  private static final int ROUNDS = Integer.getInteger("isowatch.bench.checkpoint.rounds", 9);

  @Test
  void shouldMeasureBothCodecsOnRealisticCheckpoints() throws IOException {
    System.out.println("| case | held txns | filter stages | bytes v2 | bytes v3 | v3/v2 | encode ms v2 | encode ms v3"
        + " | v3/v2 | decode ms v2 | decode ms v3 | v3/v2 | generic decode ms | generic encode ms |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    run("10^5 txns, horizon 10^4", 100_000, Horizon.ofTransactions(10_000));
    if (Boolean.parseBoolean(System.getProperty("isowatch.bench.checkpoint.large", "true"))) {
      run("10^6 txns, horizon 10^4", 1_000_000, Horizon.ofTransactions(10_000));
      run("10^6 txns, horizon 10^5", 1_000_000, Horizon.ofTransactions(100_000));
      // Large filters: a first stage of 2^26 bits, dense after 10^6 transactions.
      run("10^6 txns, horizon 10^4, filters 2^26", 1_000_000,
          Horizon.ofTransactions(10_000).withFilters(1 << 26, Horizon.MAX_FILTER_BITS));
    }
  }

  private static void run(final String name, final long txns, final Horizon horizon) throws IOException {
    final OnlineChecker engine = new OnlineChecker(CheckOptions.defaults(), OnlineOptions.streaming(10)
        .withHorizon(horizon));
    MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(9).withTransactions(txns)
            .withSessions(20).withKeys(1_000).withInjections(Injection.parseList("LostUpdate:3,WriteSkew:2")))
        .transactions().forEach(engine::accept);
    assertTrue(engine.cutForCheckpoint(), "no cut");
    final byte[] v2 = LegacyCheckpointWriter.write(engine);
    final byte[] v3 = engine.checkpoint();
    // Both decode to the same engine: its next checkpoint is the same.
    assertArrayEquals(CheckpointPropertyTest.withoutTimings(v3), CheckpointPropertyTest.withoutTimings(restore(v2).checkpoint()));
    assertArrayEquals(CheckpointPropertyTest.withoutTimings(v3), CheckpointPropertyTest.withoutTimings(restore(v3).checkpoint()));
    final int bodyLength = v3.length - CheckpointFormat.HEADER - CheckpointFormat.CHECKSUM;
    final GenericDatumReader<GenericRecord> genericReader = new GenericDatumReader<>(CheckpointFormat.SCHEMA);
    final GenericRecord record = genericReader.read(null,
        DecoderFactory.get().binaryDecoder(v3, CheckpointFormat.HEADER, bodyLength, null));
    final GenericDatumWriter<GenericRecord> genericWriter = new GenericDatumWriter<>(CheckpointFormat.SCHEMA,
        GenericData.get());
    assertEquals(bodyLength, genericEncode(genericWriter, record).length, "GenericDatumWriter wrote other bytes");

    final long[][] ms = new long[6][ROUNDS];
    final List<LongSupplier> tasks = List.of(
        () -> LegacyCheckpointWriter.write(engine).length,
        () -> engine.checkpoint().length,
        () -> CheckpointReader.read(v2).keyNames().size(),
        () -> CheckpointReader.read(v3).keyNames().size(),
        () -> genericDecode(genericReader, v3, bodyLength),
        () -> genericEncode(genericWriter, record).length);
    for (int warm = 0; warm < 3; warm++) {
      tasks.forEach(LongSupplier::getAsLong);
    }
    for (int r = 0; r < ROUNDS; r++) {
      for (int t = 0; t < tasks.size(); t++) {
        final long t0 = System.nanoTime();
        tasks.get(t).getAsLong();
        ms[t][r] = System.nanoTime() - t0;
      }
    }
    final double[] med = Arrays.stream(ms).mapToDouble(CheckpointCodecBenchmark::medianMs).toArray();
    final int stages = CheckpointReader.read(v3).summary().overwritten.stages().size()
        + CheckpointReader.read(v3).summary().other.stages().size();
    System.out.printf("| %s | %,d | %d | %,d | %,d | %.3f | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f | %.1f | %.1f |%n",
        name, CheckpointReader.read(v3).segment().size(), stages, v2.length, v3.length, (double) v3.length / v2.length,
        med[0], med[1], med[1] / med[0], med[2], med[3], med[3] / med[2], med[4], med[5]);
  }

  private static OnlineChecker restore(final byte[] bytes) {
    return OnlineChecker.restore(CheckOptions.defaults(), OnlineOptions.streaming(10), bytes);
  }

  private static long genericDecode(final GenericDatumReader<GenericRecord> reader, final byte[] v3, final int length) {
    try {
      return reader.read(null, DecoderFactory.get().binaryDecoder(v3, CheckpointFormat.HEADER, length, null))
          .getSchema().getFields().size();
    } catch (final IOException e) {
      throw new AssertionError(e);
    }
  }

  private static byte[] genericEncode(final GenericDatumWriter<GenericRecord> writer, final GenericRecord record) {
    try {
      final ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
      final BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
      writer.write(record, e);
      e.flush();
      return out.toByteArray();
    } catch (final IOException e) {
      throw new AssertionError(e);
    }
  }

  private static double medianMs(final long[] nanos) {
    final long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2] / 1e6;
  }
}
