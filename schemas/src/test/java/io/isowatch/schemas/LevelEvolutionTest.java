package io.isowatch.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.isowatch.schemas.avro.LevelRecords;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

/**
 * The weak levels in the contracts (schemas/README.md, "Weak levels"), in both directions: the
 * current schemas read every record of v3 (BACKWARD), a consumer still on v3 reads the records of a
 * checker that checks the classic levels only and fails on the first record holding a new symbol
 * (what FORWARD would have refused), and a reader of the current schema reads a level added after
 * it as {@link Level#OTHER}.
 */
class LevelEvolutionTest {

  @Test
  void shouldReadOldRecordsButNotBeReadableByOldReadersWhenComparingSchemas() throws IOException {
    // Given
    final Schema anomalyV3 = published("Anomaly/v3.avsc");
    final Schema verdictV3 = published("TenantVerdict/v3.avsc");
    // When
    final SchemaCompatibilityType newReadsOld =
        SchemaCompatibility.checkReaderWriterCompatibility(Anomaly.getClassSchema(), anomalyV3).getType();
    final SchemaCompatibilityType verdictNewReadsOld =
        SchemaCompatibility.checkReaderWriterCompatibility(TenantVerdict.getClassSchema(), verdictV3).getType();
    final SchemaCompatibilityType oldReadsNew =
        SchemaCompatibility.checkReaderWriterCompatibility(anomalyV3, Anomaly.getClassSchema()).getType();
    // Then: BACKWARD holds, FORWARD (and so FULL) does not: the old enum misses the new symbols.
    assertEquals(SchemaCompatibilityType.COMPATIBLE, newReadsOld);
    assertEquals(SchemaCompatibilityType.COMPATIBLE, verdictNewReadsOld);
    assertEquals(SchemaCompatibilityType.INCOMPATIBLE, oldReadsNew);
  }

  @Test
  void shouldDecodeClassicLevelsAndFailOnAWeakLevelWhenAnOldConsumerReadsANewRecord() throws IOException {
    // Given: two records of the current checker, one with the classic levels only, one with RA
    final Schema anomalyV3 = published("Anomaly/v3.avsc");
    final Anomaly classic = anomaly(List.of(Level.SSER, Level.SER, Level.SI));
    final Anomaly weak = anomaly(List.of(Level.SSER, Level.SER, Level.SI, Level.RA));
    // When
    final GenericRecord classicAsOld = readAs(anomalyV3, write(classic), Anomaly.getClassSchema());
    final byte[] weakBytes = write(weak);
    // Then: the old consumer reads the first as before, and cannot decode the second
    assertEquals("[SSER, SER, SI]", classicAsOld.get("violates").toString());
    final AvroTypeException e =
        assertThrows(AvroTypeException.class, () -> readAs(anomalyV3, weakBytes, Anomaly.getClassSchema()));
    assertEquals(true, e.getMessage().contains("RA"), e.getMessage());
  }

  @Test
  void shouldReadALevelAddedLaterAsOtherWhenTheReaderIsCurrent() throws IOException {
    // Given: a future writer whose Level has one more symbol, writing a verdict of that level
    final Schema future = new Schema.Parser().parse(Anomaly.getClassSchema().toString()
        .replace("\"OTHER\",\"MIXED\"]", "\"OTHER\",\"MIXED\",\"FUTURE\"]"));
    final GenericRecord record = new GenericData.Record(future);
    final Anomaly base = anomaly(List.of(Level.SER));
    for (final Schema.Field f : future.getFields()) {
      record.put(f.name(), GenericData.get().deepCopy(f.schema(), base.get(f.name())));
    }
    final Schema levelSchema = future.getField("violates").schema().getElementType();
    record.put("violates", List.of(new GenericData.EnumSymbol(levelSchema, "FUTURE"),
        new GenericData.EnumSymbol(levelSchema, "SER")));
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(future).write(record, encoder);
    encoder.flush();
    // When
    final GenericRecord read = readAs(Anomaly.getClassSchema(), out.toByteArray(), future);
    // Then: the unknown level is OTHER, which maps to no core level
    assertEquals("[OTHER, SER]", read.get("violates").toString());
    assertEquals(Set.of(io.isowatch.core.check.Level.SER),
        LevelRecords.toCore(List.of(Level.OTHER, Level.SER)));
  }

  @Test
  void shouldHaveASymbolForEveryCoreLevelWhenMapping() {
    for (final io.isowatch.core.check.Level l : io.isowatch.core.check.Level.values()) {
      assertEquals(l, LevelRecords.toCore(LevelRecords.toAvro(l)));
    }
    assertEquals(List.of(Level.SER, Level.MIXED), LevelRecords.toAvro(List.of(io.isowatch.core.check.Level.SER,
        io.isowatch.core.check.Level.MIXED)));
  }

  @Test
  void shouldReadMixedAsOtherWhenTheConsumerIsOnTheWeakLevelsSchemas() throws IOException {
    // Given: the frozen schemas of the weak levels (Anomaly v4 and v5, TenantVerdict v4), whose Level
    // ends with OTHER, the enum default; and a record of the current checker deciding MIXED
    final Anomaly mixed = anomaly(List.of(Level.SER, Level.MIXED));
    final byte[] bytes = write(mixed);
    for (final String old : List.of("Anomaly/v4.avsc", "Anomaly/v5.avsc")) {
      // When
      final GenericRecord read = readAs(published(old), bytes, Anomaly.getClassSchema());
      // Then: MIXED reads as OTHER, which LevelRecords.toCore skips; the other levels are read
      assertEquals("[SER, OTHER]", read.get("violates").toString(), old);
    }
    // Then: the schemas agree: the current reads every v5 (Anomaly) and v4 (TenantVerdict) record
    // (BACKWARD), and their readers read every current record too (the enum default covers MIXED: so
    // FORWARD holds as well), which v3 cannot (Anomaly v4 cannot either, for v5's APPEND op)
    for (final String old : List.of("Anomaly/v5.avsc", "TenantVerdict/v4.avsc")) {
      final Schema current = old.startsWith("Anomaly") ? Anomaly.getClassSchema() : TenantVerdict.getClassSchema();
      assertEquals(SchemaCompatibilityType.COMPATIBLE,
          SchemaCompatibility.checkReaderWriterCompatibility(current, published(old)).getType(), old);
      assertEquals(SchemaCompatibilityType.COMPATIBLE,
          SchemaCompatibility.checkReaderWriterCompatibility(published(old), current).getType(), old + " reads current");
    }
    assertEquals(SchemaCompatibilityType.INCOMPATIBLE, SchemaCompatibility.checkReaderWriterCompatibility(
        published("Anomaly/v3.avsc"), Anomaly.getClassSchema()).getType());
  }

  private static Anomaly anomaly(final List<Level> violates) {
    return Anomaly.newBuilder().setTenant("acme").setAnomalyId("a1").setType("G-single").setName("FracturedRead")
        .setViolates(violates).setCycle(List.of())
        .setTransactions(List.of(AnomalyTransaction.newBuilder().setTxn("T1").setSession("s1")
            .setStatus(TxnStatus.COMMITTED).setOps(List.of(new Op(OpType.READ, "x", 0L, null))).build()))
        .setExplanation("e").setDetectedAtMicros(1L).build();
  }

  private static byte[] write(final Anomaly a) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new SpecificDatumWriter<Anomaly>(Anomaly.getClassSchema()).write(a, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  private static GenericRecord readAs(final Schema reader, final byte[] bytes, final Schema writer) throws IOException {
    return new GenericDatumReader<GenericRecord>(writer, reader)
        .read(null, DecoderFactory.get().binaryDecoder(bytes, null));
  }

  private static Schema published(final String path) throws IOException {
    try (InputStream in = LevelEvolutionTest.class.getResourceAsStream("/published/" + path)) {
      return new Schema.Parser().parse(in);
    }
  }
}
