package io.isowatch.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.junit.jupiter.api.Test;

/**
 * The evolution rule (schemas/README.md): every schema is BACKWARD compatible with every version
 * ever published, i.e. today's reader decodes every record ever written. Published versions are
 * frozen copies under {@code src/test/resources/published/<Name>/v<N>.avsc}.
 */
class PublishedSchemasTest {
  private static final Map<String, Schema> CURRENT =
      SchemaContractTest.TOPIC_VALUES.stream()
          .collect(Collectors.toMap(Schema::getName, Function.identity()));

  @Test
  void shouldReadEveryPublishedVersionWhenDecodingWithTheCurrentSchema() throws Exception {
    // Given
    final List<Path> published = publishedFiles();
    final List<String> broken = new ArrayList<>();
    // When
    for (final Path file : published) {
      final String name = file.getParent().getFileName().toString();
      final Schema current = CURRENT.get(name);
      final Schema old = parse(file);
      final SchemaCompatibility.SchemaPairCompatibility result =
          SchemaCompatibility.checkReaderWriterCompatibility(current, old);
      if (result.getType() != SchemaCompatibilityType.COMPATIBLE) {
        broken.add(file + ": " + result.getDescription());
      }
    }
    // Then
    assertEquals(List.of(), broken);
    assertEquals(
        CURRENT.keySet(),
        published.stream()
            .map(p -> p.getParent().getFileName().toString())
            .collect(Collectors.toSet()),
        "every topic value has a published v1");
  }

  @Test
  void shouldRejectAnEvolutionWhenItAddsAFieldWithoutDefault() throws Exception {
    // Given: the guard above must be able to fail.
    final Schema v1 = parse(publishedFiles().stream()
        .filter(p -> p.toString().endsWith("TransactionEvent/v1.avsc"))
        .findFirst()
        .orElseThrow());
    final String withRequiredField =
        TransactionEvent.getClassSchema()
            .toString()
            .replace(
                "\"fields\":[",
                "\"fields\":[{\"name\":\"shard\",\"type\":\"int\",\"doc\":\"new, no default\"},");
    final Schema evolved = new Schema.Parser().parse(withRequiredField);
    // When
    final SchemaCompatibilityType result =
        SchemaCompatibility.checkReaderWriterCompatibility(evolved, v1).getType();
    // Then
    assertEquals(SchemaCompatibilityType.INCOMPATIBLE, result);
  }

  private static List<Path> publishedFiles() throws IOException, URISyntaxException {
    final URL root = PublishedSchemasTest.class.getResource("/published");
    assertNotNull(root, "no published schemas on the test class path");
    try (Stream<Path> files = Files.walk(Path.of(root.toURI()))) {
      final List<Path> out = files.filter(p -> p.toString().endsWith(".avsc")).sorted().toList();
      assertTrue(out.size() >= 4, "published: " + out);
      return out;
    }
  }

  private static Schema parse(final Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return new Schema.Parser().parse(in);
    }
  }
}
