package io.isowatch.streams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyIds;
import io.isowatch.schemas.AnomalyRead;
import io.isowatch.schemas.AnomalyTransaction;
import io.isowatch.schemas.Level;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.testkit.CcompatClient;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The evolution rule (schemas/README.md) as the real registry enforces it: with BACKWARD on the
 * subject, adding an optional field is accepted and breaking changes are refused with 409; the
 * fields added for anomaly identity (uniqueId, read, listedUniqueIds) are such fields, and readers
 * on either side of them keep working.
 */
@Tag("integration")
class SchemaCompatibilityIT {
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final String SUBJECT = Topics.defaults().txnEvents().valueSubject();
  private static final Schema V1 = TransactionEvent.getClassSchema();

  @Test
  void shouldAcceptAdditiveChangesAndRefuseBreakingOnesWhenTheSubjectIsBackward() throws Exception {
    // Given: BACKWARD on the subject and the current event schema as version 1.
    final CcompatClient ccompat = new CcompatClient(REGISTRY.url());
    assertEquals(200, ccompat.setCompatibility(SUBJECT, "BACKWARD").status());
    assertEquals("BACKWARD", ccompat.compatibility(SUBJECT).body().get("compatibilityLevel").asText());
    final CcompatClient.Response v1 = ccompat.register(SUBJECT, V1);
    assertEquals(200, v1.status(), v1.body().toString());
    final Schema v2 =
        withExtraField(
            V1,
            new Schema.Field(
                "shard",
                Schema.createUnion(Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.INT)),
                "Optional: the client's shard.",
                JsonProperties.NULL_VALUE));
    final Schema requiredField =
        withExtraField(v2, new Schema.Field("region", Schema.create(Schema.Type.STRING), "Required.", (Object) null));
    final Schema seqAsString = withFieldType(v2, "seq", Schema.create(Schema.Type.STRING));

    // When
    final CcompatClient.Response checkV2 = ccompat.checkAgainstLatest(SUBJECT, v2);
    final CcompatClient.Response registerV2 = ccompat.register(SUBJECT, v2);
    final CcompatClient.Response checkRequired = ccompat.checkAgainstLatest(SUBJECT, requiredField);
    final CcompatClient.Response registerRequired = ccompat.register(SUBJECT, requiredField);
    final CcompatClient.Response registerTypeChange = ccompat.register(SUBJECT, seqAsString);

    // Then: the optional field with a default is compatible and becomes version 2.
    assertEquals(true, checkV2.body().get("is_compatible").asBoolean(), checkV2.body().toString());
    assertEquals(200, registerV2.status(), registerV2.body().toString());
    assertNotEquals(v1.body().get("id").asInt(), registerV2.body().get("id").asInt());
    // Then: a new field without default, or a changed type, cannot read old data: 409.
    assertEquals(false, checkRequired.body().get("is_compatible").asBoolean(), checkRequired.body().toString());
    assertEquals(409, registerRequired.status(), registerRequired.body().toString());
    assertEquals(409, registerTypeChange.status(), registerTypeChange.body().toString());
    assertEquals("[1,2]", ccompat.versions(SUBJECT).body().toString());
  }

  @Test
  void shouldRegisterTheUniqueIdFieldsAndKeepOldAndNewReadersWorkingWhenTheSubjectsAreBackward() throws Exception {
    // Given: the anomalies and verdicts subjects at BACKWARD, holding the versions published before
    // retraction, uniqueId, read and listedUniqueIds (the frozen copies of the schemas module)
    final CcompatClient ccompat = new CcompatClient(REGISTRY.url());
    final Topics topics = Topics.defaults();
    final String anomalies = topics.anomalies().valueSubject();
    final String verdicts = topics.verdicts().valueSubject();
    final Schema anomalyV1 = published("Anomaly", 1);
    for (final String subject : List.of(anomalies, verdicts)) {
      assertEquals(200, ccompat.setCompatibility(subject, "BACKWARD").status());
    }
    final CcompatClient.Response oldAnomaly = ccompat.register(anomalies, anomalyV1);
    assertEquals(200, oldAnomaly.status(), oldAnomaly.body().toString());
    assertEquals(200, ccompat.register(verdicts, published("TenantVerdict", 2)).status());
    // The later frozen versions of Anomaly: v2 added the retraction record, v3 uniqueId and read.
    for (final int version : List.of(2, 3)) {
      final CcompatClient.Response frozen = ccompat.register(anomalies, published("Anomaly", version));
      assertEquals(200, frozen.status(), "Anomaly v" + version + ": " + frozen.body());
    }

    // When: the current schemas are registered
    final CcompatClient.Response newAnomaly = ccompat.register(anomalies, Anomaly.getClassSchema());
    final CcompatClient.Response newVerdict = ccompat.register(verdicts, TenantVerdict.getClassSchema());

    // Then: accepted as new versions
    assertEquals(200, newAnomaly.status(), newAnomaly.body().toString());
    assertEquals(200, newVerdict.status(), newVerdict.body().toString());
    assertEquals("[1,2,3,4]", ccompat.versions(anomalies).body().toString());
    assertEquals("[1,2]", ccompat.versions(verdicts).body().toString());
    // Then: an old consumer, reading with the old schema, reads a record of the current checker
    final Serde<Anomaly> serde = new AvroSerdes(AvroSerdeConfig.production(REGISTRY.url())).forTopic(topics.anomalies())
        .value();
    final Anomaly current = anomaly().setUniqueId("u1").setRead(AnomalyRead.newBuilder().setTxn("T1").setOp(0)
        .setKey("x").setValue(5L).build()).build();
    final byte[] wire = serde.serializer().serialize(topics.anomalies().name(), current);
    final Schema writer = new Schema.Parser().parse(
        ccompat.schemaById(ByteBuffer.wrap(wire, 1, 4).getInt()).body().get("schema").asText());
    final GenericRecord asOld = new GenericDatumReader<GenericRecord>(writer, anomalyV1)
        .read(null, DecoderFactory.get().binaryDecoder(Arrays.copyOfRange(wire, 5, wire.length), null));
    assertEquals(current.getAnomalyId(), asOld.get("anomalyId").toString());
    assertEquals(null, asOld.getSchema().getField("uniqueId"));
    // Then: the current checker's readers read a record written with the old schema, without the
    // new fields, and deduplicate it by its anomalyId
    final GenericRecord old = new GenericData.Record(anomalyV1);
    final Anomaly oldContent = anomaly().build();
    for (final Schema.Field f : anomalyV1.getFields()) {
      old.put(f.name(), GenericData.get().deepCopy(f.schema(), oldContent.get(f.name())));
    }
    final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    bytes.write(0);
    bytes.writeBytes(ByteBuffer.allocate(4).putInt(oldAnomaly.body().get("id").asInt()).array());
    final var encoder = EncoderFactory.get().binaryEncoder(bytes, null);
    new GenericDatumWriter<GenericRecord>(anomalyV1).write(old, encoder);
    encoder.flush();
    final Anomaly read = serde.deserializer().deserialize(topics.anomalies().name(), bytes.toByteArray());
    assertEquals(oldContent.getAnomalyId(), read.getAnomalyId());
    assertEquals(null, read.getUniqueId());
    assertEquals(null, read.getRead());
    assertEquals(read.getAnomalyId(), AnomalyIds.identity(read));
  }

  @Test
  void shouldRegisterTheWeakLevelsUnderBackwardAndRefuseThemUnderForwardWhenTheLevelEnumGrows() throws Exception {
    // Given: the anomalies and verdicts subjects at BACKWARD holding the frozen v3 (Level: SSER, SER,
    // SI), and two subjects at FORWARD and FULL holding the same
    final CcompatClient ccompat = new CcompatClient(REGISTRY.url());
    // Subjects of their own: the registry is shared with the other tests of this class.
    final var anomaliesTopic = Topics.defaults().anomalies().withName("weak-levels-anomalies");
    final String anomalies = anomaliesTopic.valueSubject();
    final String verdicts = "weak-levels-verdicts-value";
    final String forward = "weak-levels-forward-value";
    final String full = "weak-levels-full-value";
    for (final String subject : List.of(anomalies, verdicts)) {
      assertEquals(200, ccompat.setCompatibility(subject, "BACKWARD").status());
    }
    assertEquals(200, ccompat.setCompatibility(forward, "FORWARD").status());
    assertEquals(200, ccompat.setCompatibility(full, "FULL").status());
    final Schema anomalyV3 = published("Anomaly", 3);
    for (final String subject : List.of(anomalies, forward, full)) {
      assertEquals(200, ccompat.register(subject, anomalyV3).status(), subject);
    }
    assertEquals(200, ccompat.register(verdicts, published("TenantVerdict", 3)).status());

    // When: the schemas whose Level has the weak levels (v4) are registered
    final CcompatClient.Response newAnomaly = ccompat.register(anomalies, Anomaly.getClassSchema());
    final CcompatClient.Response newVerdict = ccompat.register(verdicts, TenantVerdict.getClassSchema());
    final CcompatClient.Response underForward = ccompat.register(forward, Anomaly.getClassSchema());
    final CcompatClient.Response underFull = ccompat.register(full, Anomaly.getClassSchema());

    // Then: BACKWARD accepts them (new readers read old records); FORWARD and FULL refuse them,
    // since a reader of v3 cannot read a record holding RC (schemas/README.md, "Weak levels")
    assertEquals(200, newAnomaly.status(), newAnomaly.body().toString());
    assertEquals(200, newVerdict.status(), newVerdict.body().toString());
    assertEquals(409, underForward.status(), underForward.body().toString());
    assertEquals(409, underFull.status(), underFull.body().toString());
    // Then: through the registry, a consumer still on v3 reads a record of the classic levels and
    // fails on one with a weak level
    final Serde<Anomaly> serde = new AvroSerdes(AvroSerdeConfig.production(REGISTRY.url())).forTopic(anomaliesTopic)
        .value();
    final byte[] classic = serde.serializer().serialize(anomaliesTopic.name(), anomaly().build());
    final byte[] weak = serde.serializer().serialize(anomaliesTopic.name(),
        anomaly().setName("FracturedRead").setViolates(List.of(Level.SSER, Level.SER, Level.SI, Level.RA)).build());
    final Schema writer = new Schema.Parser().parse(
        ccompat.schemaById(ByteBuffer.wrap(weak, 1, 4).getInt()).body().get("schema").asText());
    assertEquals(writer, new Schema.Parser().parse(
        ccompat.schemaById(ByteBuffer.wrap(classic, 1, 4).getInt()).body().get("schema").asText()));
    final GenericRecord asOld = new GenericDatumReader<GenericRecord>(writer, anomalyV3)
        .read(null, DecoderFactory.get().binaryDecoder(Arrays.copyOfRange(classic, 5, classic.length), null));
    assertEquals("[SSER, SER, SI]", asOld.get("violates").toString());
    final org.apache.avro.AvroTypeException e = org.junit.jupiter.api.Assertions.assertThrows(
        org.apache.avro.AvroTypeException.class, () -> new GenericDatumReader<GenericRecord>(writer, anomalyV3)
            .read(null, DecoderFactory.get().binaryDecoder(Arrays.copyOfRange(weak, 5, weak.length), null)));
    assertEquals(true, e.getMessage().contains("RA"), e.getMessage());
    // Then: the current reader reads both
    assertEquals(List.of(Level.SSER, Level.SER, Level.SI, Level.RA),
        serde.deserializer().deserialize(anomaliesTopic.name(), weak).getViolates());
  }

  @Test
  void shouldRegisterMixedUnderBackwardAndForwardAndBeReadAsOtherWhenTheReaderIsOnTheWeakLevels() throws Exception {
    // Given: subjects holding the frozen Anomaly v5 and TenantVerdict v4 (Level ends with OTHER, its
    // default), at BACKWARD, and one more holding Anomaly v5 at FORWARD
    final CcompatClient ccompat = new CcompatClient(REGISTRY.url());
    final var anomaliesTopic = Topics.defaults().anomalies().withName("mixed-level-anomalies");
    final String anomalies = anomaliesTopic.valueSubject();
    final String verdicts = "mixed-level-verdicts-value";
    final String forward = "mixed-level-forward-value";
    for (final String subject : List.of(anomalies, verdicts)) {
      assertEquals(200, ccompat.setCompatibility(subject, "BACKWARD").status());
    }
    assertEquals(200, ccompat.setCompatibility(forward, "FORWARD").status());
    final Schema anomalyV5 = published("Anomaly", 5);
    assertEquals(200, ccompat.register(anomalies, anomalyV5).status());
    assertEquals(200, ccompat.register(forward, anomalyV5).status());
    assertEquals(200, ccompat.register(verdicts, published("TenantVerdict", 4)).status());

    // When: the schemas whose Level has MIXED (Anomaly v6, TenantVerdict v5) are registered
    final CcompatClient.Response newAnomaly = ccompat.register(anomalies, Anomaly.getClassSchema());
    final CcompatClient.Response newVerdict = ccompat.register(verdicts, TenantVerdict.getClassSchema());
    final CcompatClient.Response underForward = ccompat.register(forward, Anomaly.getClassSchema());

    // Then: accepted under both: a v5 reader reads MIXED as OTHER (schemas/README.md, "Mixed levels")
    assertEquals(200, newAnomaly.status(), newAnomaly.body().toString());
    assertEquals(200, newVerdict.status(), newVerdict.body().toString());
    assertEquals(200, underForward.status(), underForward.body().toString());
    // Then: through the registry, a consumer on v5 reads a MIXED counterexample with MIXED as OTHER
    final Serde<Anomaly> serde = new AvroSerdes(AvroSerdeConfig.production(REGISTRY.url())).forTopic(anomaliesTopic)
        .value();
    final byte[] mixed = serde.serializer().serialize(anomaliesTopic.name(),
        anomaly().setName("LostUpdate").setViolates(List.of(Level.SSER, Level.SER, Level.MIXED)).build());
    final Schema writer = new Schema.Parser().parse(
        ccompat.schemaById(ByteBuffer.wrap(mixed, 1, 4).getInt()).body().get("schema").asText());
    final GenericRecord asV5 = new GenericDatumReader<GenericRecord>(writer, anomalyV5)
        .read(null, DecoderFactory.get().binaryDecoder(Arrays.copyOfRange(mixed, 5, mixed.length), null));
    assertEquals("[SSER, SER, OTHER]", asV5.get("violates").toString());
    assertEquals(List.of(Level.SSER, Level.SER, Level.MIXED),
        serde.deserializer().deserialize(anomaliesTopic.name(), mixed).getViolates());
  }

  private static Anomaly.Builder anomaly() {
    return Anomaly.newBuilder().setTenant("acme").setAnomalyId("a1").setType("thin-air").setName("ThinAirRead")
        .setViolates(List.of(Level.SSER, Level.SER, Level.SI)).setCycle(List.of())
        .setTransactions(List.of(AnomalyTransaction.newBuilder().setTxn("T1").setSession("s1")
            .setStatus(TxnStatus.COMMITTED).setOps(List.of(new Op(OpType.READ, "x", 5L, null))).build()))
        .setExplanation("T1 read x=5, which nobody wrote.").setDetectedAtMicros(1L);
  }

  /** A frozen published version from the schemas module (schemas/README.md, evolution rule 4). */
  private static Schema published(final String name, final int version) throws java.io.IOException {
    return new Schema.Parser().parse(java.nio.file.Files.readString(java.nio.file.Path.of("..", "schemas", "src",
        "test", "resources", "published", name, "v" + version + ".avsc")));
  }

  private static Schema withExtraField(final Schema record, final Schema.Field extra) {
    final List<Schema.Field> fields = copyFields(record);
    fields.add(extra);
    return rebuild(record, fields);
  }

  private static Schema withFieldType(final Schema record, final String name, final Schema type) {
    final List<Schema.Field> fields = new ArrayList<>();
    for (final Schema.Field f : record.getFields()) {
      fields.add(f.name().equals(name) ? new Schema.Field(f.name(), type, f.doc()) : new Schema.Field(f, f.schema()));
    }
    return rebuild(record, fields);
  }

  private static List<Schema.Field> copyFields(final Schema record) {
    final List<Schema.Field> fields = new ArrayList<>();
    // A Field belongs to one record: copy it before reusing it in another.
    record.getFields().forEach(f -> fields.add(new Schema.Field(f, f.schema())));
    return fields;
  }

  private static Schema rebuild(final Schema record, final List<Schema.Field> fields) {
    return Schema.createRecord(record.getName(), record.getDoc(), record.getNamespace(), false, fields);
  }
}
