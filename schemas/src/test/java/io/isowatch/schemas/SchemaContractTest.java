package io.isowatch.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** House rules every IsoWatch schema follows (schemas/README.md). */
class SchemaContractTest {
  /** The values of IsoWatch's topics: every other named type hangs off one of these. */
  static final List<Schema> TOPIC_VALUES =
      List.of(
          TransactionEvent.getClassSchema(),
          Anomaly.getClassSchema(),
          TenantVerdict.getClassSchema(),
          DeadLetter.getClassSchema());

  @Test
  void shouldDocumentEveryTypeAndFieldWhenWalkingAllSchemas() {
    // Given
    final Map<String, Schema> named = namedTypes();
    final List<String> undocumented = new ArrayList<>();
    // When
    for (final Schema s : named.values()) {
      if (isBlank(s.getDoc())) {
        undocumented.add(s.getFullName());
      }
      if (s.getType() == Schema.Type.RECORD) {
        s.getFields().stream()
            .filter(f -> isBlank(f.doc()))
            .forEach(f -> undocumented.add(s.getFullName() + "." + f.name()));
      }
    }
    // Then
    assertEquals(List.of(), undocumented);
    assertTrue(named.size() >= 14, "walked " + named.keySet());
  }

  @Test
  void shouldPutEveryNamedTypeInTheProjectNamespaceWhenWalkingAllSchemas() {
    // Given
    final Map<String, Schema> named = namedTypes();
    // When
    final List<String> foreign =
        named.values().stream()
            .filter(s -> !"io.isowatch.schemas".equals(s.getNamespace()))
            .map(Schema::getFullName)
            .toList();
    // Then
    assertEquals(List.of(), foreign);
  }

  @Test
  void shouldDefaultEveryOptionalFieldToNullWhenTheFieldIsANullableUnion() {
    // Given: an optional field is a union with null; it must list null first and default to null,
    // so that a later schema can add it and still read older data (BACKWARD).
    final List<String> wrong = new ArrayList<>();
    // When
    for (final Schema s : namedTypes().values()) {
      if (s.getType() != Schema.Type.RECORD) {
        continue;
      }
      for (final Schema.Field f : s.getFields()) {
        if (f.schema().isNullable()
            && (f.schema().getTypes().get(0).getType() != Schema.Type.NULL
                || !f.hasDefaultValue())) {
          wrong.add(s.getFullName() + "." + f.name());
        }
      }
    }
    // Then
    assertEquals(List.of(), wrong);
  }

  /** Every named type reachable from the topic values, by full name. */
  static Map<String, Schema> namedTypes() {
    final Map<String, Schema> out = new LinkedHashMap<>();
    TOPIC_VALUES.forEach(s -> collect(s, out));
    return out;
  }

  private static void collect(final Schema s, final Map<String, Schema> out) {
    switch (s.getType()) {
      case RECORD -> {
        if (out.putIfAbsent(s.getFullName(), s) == null) {
          s.getFields().forEach(f -> collect(f.schema(), out));
        }
      }
      case ENUM, FIXED -> out.putIfAbsent(s.getFullName(), s);
      case ARRAY -> collect(s.getElementType(), out);
      case MAP -> collect(s.getValueType(), out);
      case UNION -> s.getTypes().forEach(t -> collect(t, out));
      default -> {
        // Primitive types carry no name and no doc.
      }
    }
  }

  private static boolean isBlank(final String s) {
    return s == null || s.isBlank();
  }
}
