package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code isowatch} launcher at the repository root, run by bash against a copy of itself in a
 * scratch checkout, with fake {@code mvn} and {@code java} that record how they were called. The
 * real launcher on the real jar is smoke-tested by {@code .ci/run}.
 */
class IsowatchScriptTest {
  private static final Path SCRIPT = CliRun.REPO_ROOT.resolve("isowatch");
  private static final String FAKE_JAVA = "#!/bin/bash\nprintf '%s\\n' \"$@\"\nexit ${FAKE_JAVA_EXIT:-0}\n";
  // Creates what the real build creates, says something on stdout, and logs its args and directory.
  private static final String FAKE_MVN = "#!/bin/bash\necho MVN-STDOUT\necho \"$PWD $*\" >> \"$PWD/mvn.log\"\n"
      + "mkdir -p cli/target/lib\n: > cli/target/isowatch.jar\nexit ${FAKE_MVN_EXIT:-0}\n";

  @TempDir Path tmp;
  private Path root;
  private Path bin;

  private record Result(int exit, String out, String err) {}

  @BeforeEach
  void scratchCheckout() throws IOException {
    root = Files.createDirectories(tmp.resolve("checkout"));
    Files.copy(SCRIPT, root.resolve("isowatch"));
    Files.writeString(root.resolve("pom.xml"), "<project/>");
    Files.createDirectories(root.resolve("streams-app/src/main/java"));
    Files.writeString(root.resolve("streams-app/src/main/java/A.java"), "class A {}");
    bin = Files.createDirectories(tmp.resolve("bin"));
  }

  @Test
  void shouldBuildOnFirstUseThenRunJavaWithTheJarAndLibs() throws Exception {
    // Given
    fake("mvn", FAKE_MVN);
    fake("java", FAKE_JAVA);

    // When
    final Result r = run(Map.of("ISOWATCH_JAVA_OPTS", "-Xmx64m -Dx=1"), "check", "--json", "my file.jsonl");

    // Then
    assertEquals(0, r.exit(), r.err());
    assertEquals("building IsoWatch (first use)…\nMVN-STDOUT\n", r.err());
    assertEquals(root + " -q -B -Dstyle.color=never -DskipTests package\n", Files.readString(root.resolve("mvn.log")));
    assertEquals(String.join("\n", "-Xmx64m", "-Dx=1", "-cp",
        root + "/cli/target/isowatch.jar:" + root + "/cli/target/lib/*",
        "io.isowatch.cli.Main", "check", "--json", "my file.jsonl", ""), r.out());
  }

  @Test
  void shouldNotBuildWhenTheJarIsNewerThanEverySource() throws Exception {
    // Given
    fake("mvn", FAKE_MVN);
    fake("java", FAKE_JAVA);
    builtAt(Instant.now());

    // When
    final Result r = run(Map.of(), "--version");

    // Then
    assertEquals(0, r.exit(), r.err());
    assertEquals("", r.err());
    assertFalse(Files.exists(root.resolve("mvn.log")), "built although the jar was fresh");
    assertTrue(r.out().endsWith("io.isowatch.cli.Main\n--version\n"), r.out());
  }

  @Test
  void shouldRebuildOnceWhenASourceIsNewerThanTheJar() throws Exception {
    // Given
    fake("mvn", FAKE_MVN);
    fake("java", FAKE_JAVA);
    builtAt(Instant.now().minusSeconds(60));

    // When
    final Result first = run(Map.of(), "--version");
    final Result second = run(Map.of(), "--version");

    // Then
    assertEquals(0, first.exit(), first.err());
    assertEquals("building IsoWatch (sources changed)…\nMVN-STDOUT\n", first.err());
    assertEquals("", second.err());
    assertEquals(1, Files.readAllLines(root.resolve("mvn.log")).size());
  }

  @Test
  void shouldIgnoreFilesUnderTargetWhenCheckingStaleness() throws Exception {
    // Given
    fake("mvn", FAKE_MVN);
    fake("java", FAKE_JAVA);
    builtAt(Instant.now().minusSeconds(60));
    setAllSourcesTo(Instant.now().minusSeconds(120));
    Files.createDirectories(root.resolve("streams-app/target/src/x"));
    Files.writeString(root.resolve("streams-app/target/src/x/pom.xml"), "new");

    // When
    final Result r = run(Map.of(), "--version");

    // Then
    assertEquals("", r.err());
    assertFalse(Files.exists(root.resolve("mvn.log")), "a file under target/ triggered a build");
  }

  @Test
  void shouldPassTheCliExitCodeThrough() throws Exception {
    // Given
    fake("mvn", FAKE_MVN);
    fake("java", FAKE_JAVA);
    builtAt(Instant.now());

    // When
    final Result r = run(Map.of("FAKE_JAVA_EXIT", "2"), "check", "missing.jsonl");

    // Then
    assertEquals(2, r.exit());
  }

  @Test
  void shouldFindTheCheckoutWhenCalledThroughASymlink() throws Exception {
    // Given
    fake("mvn", FAKE_MVN);
    fake("java", FAKE_JAVA);
    builtAt(Instant.now());
    final Path link = Files.createDirectories(tmp.resolve("elsewhere")).resolve("iw");
    Files.createSymbolicLink(link, root.resolve("isowatch"));

    // When
    final Result r = run(link, bin + ":/usr/bin:/bin", Map.of(), "--help");

    // Then
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains(root + "/cli/target/isowatch.jar:"), r.out());
  }

  @Test
  void shouldExit3NamingMavenWhenABuildIsNeededAndMvnIsMissing() throws Exception {
    // Given
    fake("java", FAKE_JAVA);

    // When
    final Result r = runOnBarePath("--version");

    // Then
    assertEquals(3, r.exit());
    assertEquals("isowatch: Maven (mvn) is needed to build IsoWatch but is not on PATH\n", r.err());
    assertEquals("", r.out());
  }

  @Test
  void shouldExit3NamingJavaWhenJavaIsMissing() throws Exception {
    // Given
    fake("mvn", FAKE_MVN);

    // When
    final Result r = runOnBarePath("--version");

    // Then
    assertEquals(3, r.exit());
    assertEquals("isowatch: java (17 or newer) is needed but is not on PATH\n", r.err());
  }

  @Test
  void shouldExit3WhenTheBuildFails() throws Exception {
    // Given
    fake("mvn", "#!/bin/bash\necho 'COMPILATION ERROR' >&2\nexit 1\n");
    fake("java", FAKE_JAVA);

    // When
    final Result r = run(Map.of(), "--version");

    // Then
    assertEquals(3, r.exit());
    assertEquals("building IsoWatch (first use)…\nCOMPILATION ERROR\nisowatch: the build failed (see above); "
        + "run 'mvn -B -DskipTests package' in " + root + " for details\n", r.err());
    assertEquals("", r.out());
  }

  private void fake(final String name, final String body) throws IOException {
    final Path f = bin.resolve(name);
    Files.writeString(f, body);
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** Creates the jar and lib dir with the jar's mtime at {@code when}; sources stay as written. */
  private void builtAt(final Instant when) throws IOException {
    Files.createDirectories(root.resolve("cli/target/lib"));
    final Path jar = Files.writeString(root.resolve("cli/target/isowatch.jar"), "");
    Files.setLastModifiedTime(jar, FileTime.from(when));
  }

  private void setAllSourcesTo(final Instant when) throws IOException {
    for (final Path p : List.of(root.resolve("pom.xml"), root.resolve("streams-app/src/main/java/A.java"),
        root.resolve("streams-app/src/main/java"), root.resolve("streams-app/src/main"), root.resolve("streams-app/src"))) {
      Files.setLastModifiedTime(p, FileTime.from(when));
    }
  }

  /** Runs with the fakes first on PATH and the system directories (mkdir, find, touch…) after them. */
  private Result run(final Map<String, String> env, final String... args) throws Exception {
    return run(root.resolve("isowatch"), bin + ":/usr/bin:/bin", env, args);
  }

  /** Runs with only the fakes on PATH, so that a tool not faked cannot be found at all. */
  private Result runOnBarePath(final String... args) throws Exception {
    return run(root.resolve("isowatch"), bin.toString(), Map.of(), args);
  }

  private Result run(final Path script, final String path, final Map<String, String> env, final String... args)
      throws Exception {
    final List<String> cmd = new ArrayList<>(List.of("/bin/bash", script.toString()));
    cmd.addAll(List.of(args));
    final ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
    pb.environment().clear();
    pb.environment().put("PATH", path);
    pb.environment().putAll(env);
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    final Process p = pb.start();
    final var out = p.getInputStream();
    final var err = p.getErrorStream();
    // Small outputs: reading one stream after the other cannot fill the other pipe's buffer.
    final String stdout = new String(out.readAllBytes(), StandardCharsets.UTF_8);
    final String stderr = new String(err.readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the script did not finish");
    return new Result(p.exitValue(), stdout, stderr);
  }
}
