package io.isowatch.schemas.serde;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.apicurio.registry.resolver.ParsedSchema;
import io.apicurio.registry.resolver.ParsedSchemaImpl;
import io.apicurio.registry.resolver.SchemaLookupResult;
import io.apicurio.registry.resolver.SchemaParser;
import io.apicurio.registry.resolver.SchemaResolver;
import io.apicurio.registry.resolver.data.Record;
import io.apicurio.registry.resolver.strategy.ArtifactReference;
import io.apicurio.registry.resolver.strategy.ArtifactReferenceResolverStrategy;
import io.apicurio.registry.rest.client.RegistryClient;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.avro.TransactionEvents;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * The input's decoder reads records of the known schema id itself: for records of every published
 * schema version, of the compiled one, and bad ones, it must give what Apicurio's own deserializer
 * gives (the same event or the same error), and the body only for the compiled schema.
 */
class TransactionEventDeserializerTest {
  private static final int V1 = 11;
  private static final int V2 = 12;
  private static final int COMPILED = 13;
  private static final int UNKNOWN = 99;
  private static final Map<Integer, Schema> SCHEMAS = Map.of(
      V1, published("v1"), V2, published("v2"), COMPILED, TransactionEvent.getClassSchema());

  private static final List<TransactionEvent> REGISTER_EVENTS = registerEvents();

  @Test
  void shouldDecodeExactlyAsApicurioDoesWhenRecordsOfEveryPublishedVersionAndTheCompiledOneInterleave() {
    // Given: register events written with v1, v2 and the compiled schema, list-append ones with v2 and compiled
    final List<byte[]> records = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      for (final TransactionEvent e : REGISTER_EVENTS) {
        records.add(framed(V1, e));
        records.add(framed(COMPILED, e));
        records.add(framed(V2, e));
        records.add(framed(COMPILED, e));
      }
      for (final TransactionEvent e : listAppendEvents()) {
        records.add(framed(COMPILED, e));
        records.add(framed(V2, e));
      }
    }
    final Counting direct = new Counting();
    final Counting generic = new Counting();
    try (TransactionEventDeserializer d = deserializer(direct);
         AvroKafkaDeserializer<TransactionEvent> apicurio = apicurio(generic)) {
      // When / Then: the same event for every record, and the body of exactly the compiled ones
      for (final byte[] r : records) {
        final TransactionEvent expected = apicurio.deserialize("t", new RecordHeaders(), r);
        assertEquals(expected, d.deserialize("t", new RecordHeaders(), r));
        final int id = ByteBuffer.wrap(r, 1, 4).getInt();
        final byte[] body = d.takeBody();
        if (SCHEMAS.get(id).equals(TransactionEvent.getClassSchema())) {
          assertArrayEquals(Arrays.copyOfRange(r, 5, r.length), body);
        } else {
          assertNull(body);
        }
        assertNull(d.takeBody(), "a body is taken once");
      }
      // And: after the first record of each id, the known id no longer asks the resolver
      assertEquals(generic.lookups.get(), records.size());
      assertTrue(direct.lookups.get() < records.size() / 2, "lookups " + direct.lookups.get());
    }
  }

  @Test
  void shouldReadTheKnownIdWithoutTheResolverAndRevalidateItEveryNRecords() {
    // Given
    final Counting resolver = new Counting();
    final byte[] record = framed(COMPILED, REGISTER_EVENTS.get(1));
    try (TransactionEventDeserializer d = deserializer(resolver)) {
      // When
      for (int i = 0; i < 2 * TransactionEventDeserializer.REVALIDATE_EVERY; i++) {
        assertEquals(REGISTER_EVENTS.get(1), d.deserialize("t", new RecordHeaders(), record));
      }
      // Then: the first record, then one in REVALIDATE_EVERY
      assertEquals(2, resolver.lookups.get());
    }
  }

  @Test
  void shouldFailAsApicurioDoesWhenABodyOfTheKnownIdIsTruncatedOrCorrupt() {
    final byte[] good = framed(COMPILED, REGISTER_EVENTS.get(2));
    final byte[] truncated = Arrays.copyOf(good, good.length - 3);
    final byte[] empty = Arrays.copyOf(good, 5);
    final byte[] badEnum = good.clone();
    final byte[] corrupt = good.clone();
    // the status enum's index follows tenant, session, seq and txn: overwrite the whole body instead
    Arrays.fill(corrupt, 5, corrupt.length, (byte) 0x7f);
    Arrays.fill(badEnum, 5, badEnum.length, (byte) 0x01);
    for (final byte[] bad : List.of(truncated, empty, corrupt, badEnum)) {
      try (TransactionEventDeserializer d = deserializer(new Counting());
           AvroKafkaDeserializer<TransactionEvent> apicurio = apicurio(new Counting())) {
        // Given: the id is known
        d.deserialize("t", new RecordHeaders(), good);
        d.takeBody();
        // When
        final RuntimeException expected =
            assertThrows(RuntimeException.class, () -> apicurio.deserialize("t", new RecordHeaders(), bad));
        final RuntimeException actual =
            assertThrows(RuntimeException.class, () -> d.deserialize("t", new RecordHeaders(), bad));
        // Then: the same error, counted as the record's, no body; the next good record decodes
        assertEquals(expected.getClass(), actual.getClass());
        assertEquals(expected.getMessage(), actual.getMessage());
        assertTrue(d.lastFailureWasInBody());
        assertNull(d.takeBody());
        assertEquals(REGISTER_EVENTS.get(2), d.deserialize("t", new RecordHeaders(), good));
        assertFalse(d.lastFailureWasInBody());
      }
    }
  }

  @Test
  void shouldAskTheResolverWhenTheIdIsUnknownOrTheMagicByteIsNotZero() {
    // Given: the compiled id is known
    final Counting resolver = new Counting();
    try (TransactionEventDeserializer d = deserializer(resolver)) {
      d.deserialize("t", new RecordHeaders(), framed(COMPILED, REGISTER_EVENTS.get(0)));
      final byte[] unknown = framed(UNKNOWN, REGISTER_EVENTS.get(0));
      final byte[] otherMagic = framed(COMPILED, REGISTER_EVENTS.get(0));
      otherMagic[0] = 1;
      // When / Then: an unknown id reaches the resolver (a registry's 404) and fails as before
      final RuntimeException e = assertThrows(RuntimeException.class,
          () -> d.deserialize("t", new RecordHeaders(), unknown));
      assertTrue(e.getMessage().contains("no schema 99"), e.getMessage());
      assertFalse(d.lastFailureWasInBody());
      assertEquals(2, resolver.lookups.get());
      // and another magic byte is Apicurio's to refuse, not read as the known id
      assertThrows(RuntimeException.class, () -> d.deserialize("t", new RecordHeaders(), otherMagic));
      assertNull(d.deserialize("t", new RecordHeaders(), (byte[]) null), "a tombstone is Apicurio's null");
    }
  }

  private static TransactionEventDeserializer deserializer(final Counting resolver) {
    final TransactionEventDeserializer d = new TransactionEventDeserializer();
    d.setSchemaResolver(resolver);
    d.configure(props(), false);
    return d;
  }

  private static AvroKafkaDeserializer<TransactionEvent> apicurio(final Counting resolver) {
    final AvroKafkaDeserializer<TransactionEvent> d = new AvroKafkaDeserializer<>();
    d.setSchemaResolver(resolver);
    d.configure(props(), false);
    return d;
  }

  private static Map<String, Object> props() {
    return new HashMap<>(AvroSerdeConfig.production(URI.create("http://127.0.0.1:1/")).serdeProperties());
  }

  /** A registry of the schemas above by content id, counting look-ups; an unknown id fails as a 404 would. */
  private static final class Counting implements SchemaResolver<Schema, TransactionEvent> {
    final AtomicInteger lookups = new AtomicInteger();
    private SchemaParser<Schema, TransactionEvent> parser;

    @Override
    public void configure(final Map<String, ?> configs, final SchemaParser<Schema, TransactionEvent> schemaParser) {
      this.parser = schemaParser;
    }

    @Override
    public void setClient(final RegistryClient client) {}

    @Override
    public void setArtifactResolverStrategy(final ArtifactReferenceResolverStrategy<Schema, TransactionEvent> s) {}

    @Override
    public SchemaParser<Schema, TransactionEvent> getSchemaParser() {
      return parser;
    }

    @Override
    public SchemaLookupResult<Schema> resolveSchema(final Record<TransactionEvent> data) {
      throw new UnsupportedOperationException("a deserializer never resolves by data");
    }

    @Override
    public SchemaLookupResult<Schema> resolveSchemaByArtifactReference(final ArtifactReference reference) {
      lookups.incrementAndGet();
      final long id = reference.getContentId();
      final Schema schema = SCHEMAS.get((int) id);
      if (schema == null) {
        throw new IllegalStateException("no schema " + id);
      }
      final ParsedSchema<Schema> parsed = new ParsedSchemaImpl<Schema>().setParsedSchema(schema)
          .setRawSchema(schema.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return SchemaLookupResult.<Schema>builder().parsedSchema(parsed).contentId(id).build();
    }

    @Override
    public void reset() {}

    @Override
    public void close() {}
  }

  private static List<TransactionEvent> registerEvents() {
    final List<TransactionEvent> events = new ArrayList<>(history("""
        A s1 w(x,1) w(y,2) seq=0
        B s2 r(x,1) r(y,2) w(z,3) seq=0
        C s1 r(z,3) seq=1
        D s3 r(x,0) w(x,4) seq=4
        E s3 r(q,0) seq=5
        """).transactions().stream().map(t -> TransactionEvents.fromCore("acme", t)).toList());
    events.add(TransactionEvent.newBuilder().setTenant("ténant ☃").setSession("s9").setSeq(Long.MAX_VALUE)
        .setTxn("").setStatus(TxnStatus.ABORTED).setStartMicros(null).setEndMicros(-5L).setLevel("REPEATABLE READ")
        .setOps(List.of(new Op(OpType.READ, "k", null, null), new Op(OpType.WRITE, "k", Long.MIN_VALUE, null)))
        .build());
    events.add(TransactionEvent.newBuilder().setTenant("t").setSession("s").setSeq(0).setTxn("u")
        .setStatus(TxnStatus.UNKNOWN).setOps(List.of()).build());
    return events;
  }

  private static List<TransactionEvent> listAppendEvents() {
    return List.of(TransactionEvent.newBuilder().setTenant("t").setSession("s").setSeq(3).setTxn("la")
        .setStatus(TxnStatus.COMMITTED).setStartMicros(1L).setEndMicros(2L)
        .setOps(List.of(new Op(OpType.APPEND, "l", 7L, null), new Op(OpType.READ, "l", 7L, List.of(1L, 7L)),
            new Op(OpType.READ, "m", null, List.of())))
        .build());
  }

  /** The Confluent wire format: magic byte 0, the 4-byte id, the event written with that id's schema. */
  private static byte[] framed(final int id, final TransactionEvent e) {
    try {
      final ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(new byte[] {0});
      out.write(ByteBuffer.allocate(4).putInt(id).array());
      final BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
      new SpecificDatumWriter<Object>(SCHEMAS.getOrDefault(id, TransactionEvent.getClassSchema())).write(e, enc);
      enc.flush();
      return out.toByteArray();
    } catch (final IOException x) {
      throw new AssertionError(x);
    }
  }

  private static Schema published(final String version) {
    try (InputStream in = TransactionEventDeserializerTest.class.getResourceAsStream(
        "/published/TransactionEvent/" + version + ".avsc")) {
      return new Schema.Parser().parse(in);
    } catch (final IOException e) {
      throw new AssertionError(e);
    }
  }
}
