package io.isowatch.cli;

import io.isowatch.core.testkit.ResultFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history file the command tests read: {@link ResultFixtures#LOST_UPDATE_DSL} written as
 * {@code h.txt} into a fresh temporary directory before each test.
 */
abstract class LostUpdateFixture {
  @TempDir Path tmp;
  Path history;

  @BeforeEach
  void writeHistory() throws Exception {
    history = Files.writeString(tmp.resolve("h.txt"), ResultFixtures.LOST_UPDATE_DSL);
  }
}
