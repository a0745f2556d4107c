package io.isowatch.core.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** docs/levels.md, "Database profiles", prints the table the code has: same entries, levels and certainty. */
class DatabaseProfilesDocTest {
  private static final Path LEVELS_MD = Path.of("..", "docs", "levels.md");

  @Test
  void shouldPrintEveryProfileWithItsLevelsAndCertaintyWhenTheDocsListTheTable() throws Exception {
    // Given: the rows of the table, by their --promise spec
    final Map<String, String[]> rows = Files.readAllLines(LEVELS_MD).stream()
        .filter(l -> l.startsWith("| `") && l.contains(":"))
        .map(l -> l.substring(2, l.length() - 2).split(" \\| "))
        .filter(c -> c.length == 6)
        .collect(Collectors.toMap(c -> c[0].replace("`", ""), Function.identity()));
    final List<Promise> all = DatabaseProfiles.all();
    // Then
    assertEquals(all.size(), rows.size(), rows.keySet().toString());
    for (final Promise p : all) {
      final String[] row = rows.get(p.spec());
      assertTrue(row != null, p.spec() + " is missing from docs/levels.md");
      final String levels = p.guarantees().isEmpty() ? "nothing IsoWatch decides"
          : String.join(", ", Level.strongestFirst(p.guarantees()).stream().map(Level::name).toList());
      assertEquals(levels, row[2], p.spec());
      assertEquals(p.certainty().name().toLowerCase(Locale.ROOT), row[4], p.spec());
      for (final Level l : p.notGiven().keySet()) {
        assertTrue(row[3].contains(l.name() + ": " + p.notGiven().get(l)), p.spec() + " " + l);
      }
    }
  }
}
