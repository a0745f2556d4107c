package io.isowatch.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.processor.EventCodec;
import io.isowatch.streams.processor.TenantKey;
import io.isowatch.streams.testkit.CcompatClient;
import io.isowatch.streams.testkit.CheckerDriver;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import io.isowatch.streams.testkit.TestEvents;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code tenant-transactions} stores for an arrival: the input record's own Avro body when
 * its writer schema is the compiled one, the decoded event encoded again otherwise, and never a
 * body a producer put in a header. Real registry, real RocksDB stores (TopologyTestDriver).
 */
class StoredEventBodyTest {
  /**
   * No horizon: the stored inputs read back here would otherwise be deleted once the (default)
   * horizon's first checkpoint covers them (issue 10); their format does not depend on it.
   */
  private static final Map<String, String> KEEP_INPUTS =
      Map.of(IsoWatchStreamsConfig.CHECK_HORIZON_TRANSACTIONS_CONFIG, "-1");

  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final String TENANT = "acme";
  private static final byte[] KEY = TENANT.getBytes(StandardCharsets.UTF_8);
  private static final int CONFLUENT_HEADER = 5;

  @TempDir Path stateDir;

  @Test
  void shouldStoreTheRecordsOwnBodyWhenItsWriterSchemaIsTheCompiledOne() {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir, KEEP_INPUTS)) {
      // Given: a record as a producer writes it, Confluent header and Avro body
      final TransactionEvent event = TestEvents.rmw(TENANT, "s1", 0, "T1", "x", null, 1);
      final byte[] raw = serialize(checker, event);

      // When
      checker.pipeRaw(KEY, raw);

      // Then
      final byte[] stored = storedBody(checker, 0);
      assertArrayEquals(Arrays.copyOfRange(raw, CONFLUENT_HEADER, raw.length), stored);
      assertEquals(event, new EventCodec().decode(stored));
    }
  }

  @Test
  void shouldStoreTheDecodedEventWhenTheInputCarriesABodyHeaderOfItsOwn() throws Exception {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir, KEEP_INPUTS)) {
      // Given: a producer's header claiming another event's body, on records of both writer schemas
      final TransactionEvent first = TestEvents.rmw(TENANT, "s1", 0, "T1", "x", null, 1);
      final TransactionEvent second = TestEvents.rmw(TENANT, "s1", 1, "T2", "x", 1L, 2);
      final TransactionEvent other = TestEvents.rmw(TENANT, "s9", 0, "T9", "y", null, 9);
      final TestInputTopic<byte[], byte[]> input = rawInput(checker);

      // When
      input.pipeInput(new TestRecord<>(KEY, serialize(checker, first), injected(other), CheckerDriver.START));
      input.pipeInput(new TestRecord<>(KEY, writtenWithV2(second), injected(other), CheckerDriver.START));

      // Then
      assertEquals(first, new EventCodec().decode(storedBody(checker, 0)));
      assertEquals(second, new EventCodec().decode(storedBody(checker, 1)));
    }
  }

  @Test
  void shouldEncodeTheEventAgainWhenTheWriterSchemaIsAnother() throws Exception {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir, KEEP_INPUTS)) {
      // Given: the event written with a later schema (one more optional field, after the others)
      final TransactionEvent event = TestEvents.rmw(TENANT, "s1", 0, "T1", "x", null, 1);
      final byte[] raw = writtenWithV2(event);
      final byte[] body = Arrays.copyOfRange(raw, CONFLUENT_HEADER, raw.length);

      // When
      checker.pipeRaw(KEY, raw);

      // Then: stored in the compiled schema, not the v2 body
      final byte[] stored = storedBody(checker, 0);
      assertFalse(Arrays.equals(body, stored));
      assertArrayEquals(new EventCodec().encode(event), stored);
    }
  }

  private static byte[] serialize(final CheckerDriver checker, final TransactionEvent event) {
    final AvroSerdes serdes = new AvroSerdes(new IsoWatchStreamsConfig(java.util.Map.of(
        IsoWatchStreamsConfig.SCHEMA_REGISTRY_URL_CONFIG, REGISTRY.url().toString(),
        IsoWatchStreamsConfig.SCHEMAS_AUTO_REGISTER_CONFIG, "true",
        IsoWatchStreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "ttd:9092")).avroSerdeConfig());
    return serdes.valueSerde(TransactionEvent.class).serializer()
        .serialize(Topics.defaults().txnEvents().name(), event);
  }

  /** The event as a producer with a later schema writes it: one more optional field, set. */
  private static byte[] writtenWithV2(final TransactionEvent event) throws Exception {
    final Schema v2 = withOptionalField(TransactionEvent.getClassSchema(), "shard");
    final CcompatClient.Response registered = new CcompatClient(REGISTRY.url())
        .register(Topics.defaults().txnEvents().valueSubject(), v2);
    assertEquals(200, registered.status(), registered.body().toString());
    final GenericRecord written = new GenericData.Record(v2);
    for (final Schema.Field f : TransactionEvent.getClassSchema().getFields()) {
      written.put(f.name(), GenericData.get().deepCopy(f.schema(), event.get(f.pos())));
    }
    written.put("shard", 7);
    final byte[] body = encode(v2, written);
    return ByteBuffer.allocate(CONFLUENT_HEADER + body.length).put((byte) 0)
        .putInt(registered.body().get("id").asInt()).put(body).array();
  }

  private static RecordHeaders injected(final TransactionEvent other) {
    final RecordHeaders headers = new RecordHeaders();
    headers.add("isowatch.event-body", new EventCodec().encode(other));
    return headers;
  }

  private static TestInputTopic<byte[], byte[]> rawInput(final CheckerDriver checker) {
    return checker.driver().createInputTopic(Topics.defaults().txnEvents().name(),
        Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
  }

  /** The Avro body of the tenant's stored input {@code index} (after the kind byte and the time). */
  private static byte[] storedBody(final CheckerDriver checker, final long index) {
    final byte[] value = io.isowatch.streams.processor.StoredInputEntries.inputs(
        checker.driver().<TenantKey, byte[]>getKeyValueStore(Stores.TENANT_TRANSACTIONS), TENANT).get(index);
    assertEquals(0, value[0], "an arrival");
    return Arrays.copyOfRange(value, 9, value.length);
  }

  private static Schema withOptionalField(final Schema record, final String name) {
    final List<Schema.Field> fields = new ArrayList<>();
    for (final Schema.Field f : record.getFields()) {
      fields.add(new Schema.Field(f, f.schema()));
    }
    fields.add(new Schema.Field(name,
        Schema.createUnion(Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.INT)), null,
        JsonProperties.NULL_VALUE));
    return Schema.createRecord(record.getName(), record.getDoc(), record.getNamespace(), false, fields);
  }

  private static byte[] encode(final Schema schema, final GenericRecord record) throws Exception {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
