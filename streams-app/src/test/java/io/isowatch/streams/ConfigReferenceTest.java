package io.isowatch.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/config-reference.md is generated from the ConfigDef. Regenerate it with {@code mvn -pl
 * streams-app test -Dtest=ConfigReferenceTest -Disowatch.docs.write=true}.
 */
class ConfigReferenceTest {
  private static final String WRITE_PROPERTY = "isowatch.docs.write";

  @Test
  void shouldMatchTheCommittedReferenceWhenTheConfigDefChanges() throws Exception {
    // Given
    final Path file = repositoryRoot().resolve("docs/config-reference.md");
    final String generated = ConfigReference.markdown();
    if (Boolean.getBoolean(WRITE_PROPERTY)) {
      Files.writeString(file, generated, StandardCharsets.UTF_8);
    }
    // When
    final String committed = Files.readString(file, StandardCharsets.UTF_8);
    // Then
    assertEquals(generated, committed, "docs/config-reference.md is stale: rerun with -D" + WRITE_PROPERTY + "=true");
  }

  @Test
  void shouldDocumentEveryKeyWithItsEnvironmentVariableWhenRendered() {
    // When
    final String md = ConfigReference.markdown();
    // Then
    for (final String key : IsoWatchStreamsConfig.CONFIG_DEF.names()) {
      assertTrue(md.contains("| `" + key + "` | `" + IsoWatchStreamsConfig.envName(key) + "` |"), key);
    }
    assertTrue(md.contains("| `check.grace.ms` | `ISOWATCH_CHECK_GRACE_MS` | long | `5000` |"), md);
  }

  private static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isRegularFile(dir.resolve("docs/streaming-design.md"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no docs/streaming-design.md above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }
}
