package io.isowatch.streams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.streams.Topics;
import io.isowatch.streams.testkit.CcompatClient;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The evolution rule (schemas/README.md) as the real registry enforces it: with BACKWARD on the
 * subject, adding an optional field is accepted and breaking changes are refused with 409.
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
  void shouldRegisterTheAnomalyWithItsRetractionFieldOverTheFrozenV1WhenTheSubjectIsBackward() throws Exception {
    // Given: BACKWARD on the anomalies subject and the frozen v1 of Anomaly registered as version 1
    final String subject = Topics.defaults().anomalies().valueSubject();
    final Schema v1 = new Schema.Parser().parse(java.nio.file.Files.readString(
        java.nio.file.Path.of("..", "schemas", "src", "test", "resources", "published", "Anomaly", "v1.avsc")));
    final CcompatClient ccompat = new CcompatClient(REGISTRY.url());
    assertEquals(200, ccompat.setCompatibility(subject, "BACKWARD").status());
    assertEquals(200, ccompat.register(subject, v1).status());

    // When: the current Anomaly (v2, with the optional retraction record) is checked and registered
    final CcompatClient.Response check = ccompat.checkAgainstLatest(subject, Anomaly.getClassSchema());
    final CcompatClient.Response register = ccompat.register(subject, Anomaly.getClassSchema());

    // Then
    assertEquals(true, check.body().get("is_compatible").asBoolean(), check.body().toString());
    assertEquals(200, register.status(), register.body().toString());
    assertEquals("[1,2]", ccompat.versions(subject).body().toString());
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
