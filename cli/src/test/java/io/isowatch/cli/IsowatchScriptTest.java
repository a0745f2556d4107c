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
  void shouldGiveCheckTheParallelCollectorAndALargeYoungGenerationUnlessTheUserSizesTheHeapOrPicksACollector()
      throws Exception {
    // Given
    fake("mvn", FAKE_MVN);
    fake("java", FAKE_JAVA);
    builtAt(Instant.now());
    final Map<String, String> noCds = Map.of("ISOWATCH_CDS", "off");
    final String gc = "-XX:+UseParallelGC\n-XX:InitialRAMPercentage=25\n-XX:NewRatio=1\n";

    // When
    final Result check = run(noCds, "check", "h.jsonl");
    final Result debug = run(Map.of("ISOWATCH_CDS", "off", "ISOWATCH_JAVA_OPTS", "-Dx=1 -Xlog:gc"), "check", "h.jsonl");
    final Result heap = run(Map.of("ISOWATCH_CDS", "off", "ISOWATCH_JAVA_OPTS", "-Xmx2g"), "check", "h.jsonl");
    final Result g1 = run(Map.of("ISOWATCH_CDS", "off", "ISOWATCH_JAVA_OPTS", "-XX:+UseG1GC"), "check", "h.jsonl");
    final Result other = run(noCds, "convert", "h.jsonl");

    // Then: check gets them, also beside options that choose neither; the user's choice stands whole
    assertTrue(check.out().startsWith(gc + "-cp\n"), check.out());
    assertTrue(debug.out().startsWith(gc + "-Dx=1\n-Xlog:gc\n-cp\n"), debug.out());
    assertTrue(heap.out().startsWith("-Xmx2g\n-cp\n"), heap.out());
    assertTrue(g1.out().startsWith("-XX:+UseG1GC\n-cp\n"), g1.out());
    assertTrue(other.out().startsWith("-cp\n"), other.out());
  }

  @Test
  void shouldGiveReplayC1OnlyUnlessTheUserChoosesAJitSetting() throws Exception {
    // Given
    fake("mvn", FAKE_MVN);
    fake("java", FAKE_JAVA);
    builtAt(Instant.now());
    final Map<String, String> noCds = Map.of("ISOWATCH_CDS", "off");

    // When
    final Result replay = run(noCds, "replay", "--file", "h.jsonl");
    final Result logged = run(Map.of("ISOWATCH_CDS", "off", "ISOWATCH_JAVA_OPTS", "-Dx=1"), "replay", "--file", "h.jsonl");
    final Result c2 = run(Map.of("ISOWATCH_CDS", "off", "ISOWATCH_JAVA_OPTS", "-XX:TieredStopAtLevel=4"),
        "replay", "--file", "h.jsonl");
    final Result run = run(noCds, "run", "--config", "c.properties");

    // Then: replay gets C1 only, before the user's options; a JIT choice of the user's stands alone; run keeps the default
    assertTrue(replay.out().startsWith("-XX:TieredStopAtLevel=1\n-cp\n"), replay.out());
    assertTrue(logged.out().startsWith("-XX:TieredStopAtLevel=1\n-Dx=1\n-cp\n"), logged.out());
    assertTrue(c2.out().startsWith("-XX:TieredStopAtLevel=4\n-cp\n"), c2.out());
    assertTrue(run.out().startsWith("-cp\n"), run.out());
  }

  @Test
  void shouldGiveCheckC1OnlyOnASmallFileUnlessTheUserChoosesAJitSetting() throws Exception {
    // Given: a small history, one just above the launcher's 96 MiB (sparse: no disk used), none on stdin
    fake("mvn", FAKE_MVN);
    fake("java", FAKE_JAVA);
    builtAt(Instant.now());
    final Map<String, String> noCds = Map.of("ISOWATCH_CDS", "off");
    Files.writeString(tmp.resolve("small.jsonl"), "{}\n");
    try (var large = new java.io.RandomAccessFile(tmp.resolve("large.jsonl").toFile(), "rw")) {
      large.setLength(96L * 1024 * 1024 + 1);
    }
    Files.writeString(tmp.resolve("-dash.jsonl"), "{}\n");
    final String gc = "-XX:+UseParallelGC\n-XX:InitialRAMPercentage=25\n-XX:NewRatio=1\n";

    // When
    final Result small = run(noCds, "check", "--levels", "SER", "small.jsonl");
    final Result absolute = run(noCds, "check", tmp.resolve("small.jsonl").toString());
    final Result dash = run(noCds, "check", "--", "-dash.jsonl");
    final Result large = run(noCds, "check", "large.jsonl");
    final Result stdin = run(noCds, "check", "-");
    final Result c2 = run(Map.of("ISOWATCH_CDS", "off", "ISOWATCH_JAVA_OPTS", "-XX:TieredStopAtLevel=4"),
        "check", "small.jsonl");
    final Result convert = run(noCds, "convert", "small.jsonl");

    // Then: C1 only after the collector's options on a small file; the default beyond it, on stdin,
    // for a JIT choice of the user's and for other commands
    assertTrue(small.out().startsWith(gc + "-XX:TieredStopAtLevel=1\n-cp\n"), small.out());
    assertTrue(absolute.out().startsWith(gc + "-XX:TieredStopAtLevel=1\n-cp\n"), absolute.out());
    assertTrue(dash.out().startsWith(gc + "-XX:TieredStopAtLevel=1\n-cp\n"), dash.out());
    assertTrue(large.out().startsWith(gc + "-cp\n"), large.out());
    assertTrue(stdin.out().startsWith(gc + "-cp\n"), stdin.out());
    assertTrue(c2.out().startsWith(gc + "-XX:TieredStopAtLevel=4\n-cp\n"), c2.out());
    assertTrue(convert.out().startsWith("-cp\n"), convert.out());
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
    builtAMinuteAfterTheSources(FAKE_JAVA);
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

  // Logs every call; makes the class list and the archive the way the JDK does, unless told to fail.
  private static final String FAKE_CDS_JAVA = "#!/bin/bash\necho \"$*\" >> \"$FAKE_JAVA_LOG\"\n"
      + "for a in \"$@\"; do case $a in\n"
      + "  -XX:DumpLoadedClassList=*) echo TRAINING-STDOUT; echo java/lang/Object > \"${a#*=}\";;\n"
      + "  -Xshare:dump) [[ -n $FAKE_DUMP_FAIL ]] && { echo DUMP-FAILED; exit 1; };;\n"
      + "  -XX:SharedArchiveFile=*) [[ \" $* \" == *\" -Xshare:dump \"* ]] && echo archive > \"${a#*=}\";;\n"
      + "esac; done\nprintf '%s\\n' \"$@\"\n";

  @Test
  void shouldMakeTheStartUpArchiveOnFirstUseAndMapItOnEveryLaterRun() throws Exception {
    // Given
    fake("mvn", FAKE_MVN);
    fake("java", FAKE_CDS_JAVA);
    builtAt(Instant.now());
    final Map<String, String> env = Map.of("FAKE_JAVA_LOG", tmp.resolve("java.log").toString());

    // When
    final Result first = run(env, "check", "--json", "h.jsonl");
    final Result second = run(env, "check", "--json", "h.jsonl");

    // Then: the training and dump runs said nothing on stdout or stderr, and ran once.
    final String cds = root + "/cli/target/isowatch.jsa";
    final String expected = String.join("\n", "-XX:SharedArchiveFile=" + cds, "-Xlog:cds=off", "-Xlog:cds+dynamic=off",
        "-XX:+UseParallelGC", "-XX:InitialRAMPercentage=25", "-XX:NewRatio=1", "-cp", root + "/cli/target/isowatch.jar:" + root + "/cli/target/lib/*",
        "io.isowatch.cli.Main", "check", "--json", "h.jsonl", "");
    assertEquals(0, first.exit(), first.err());
    assertEquals("", first.err());
    assertEquals(expected, first.out());
    assertEquals(expected, second.out());
    assertEquals("", second.err());
    final List<String> calls = Files.readAllLines(tmp.resolve("java.log"));
    assertEquals(4, calls.size(), calls.toString());
    assertTrue(calls.get(0).startsWith("-Xshare:off -XX:DumpLoadedClassList=" + cds + "."), calls.get(0));
    assertTrue(calls.get(0).endsWith("io.isowatch.cli.Main check --levels SSER,SER,SI --json "
        + root + "/samples/valid-ser.jsonl"), calls.get(0));
    assertTrue(calls.get(1).startsWith("-Xshare:dump -XX:SharedClassListFile=" + cds + "."), calls.get(1));
    assertEquals(List.of("isowatch.jar", "isowatch.jsa", "isowatch.jsa.java", "lib"), targetFiles());
  }

  @Test
  void shouldRunWithoutTheArchiveAndNotRetryUntilTheNextBuildWhenMakingItFails() throws Exception {
    // Given
    builtAMinuteAfterTheSources(FAKE_CDS_JAVA);
    final Map<String, String> env = Map.of("FAKE_JAVA_LOG", tmp.resolve("java.log").toString(), "FAKE_DUMP_FAIL", "1");

    // When
    final Result first = run(env, "--version");
    final Result second = run(env, "--version");
    builtAt(Instant.now().plusSeconds(5));
    final Result afterBuild = run(env, "--version");

    // Then
    for (final Result r : List.of(first, second, afterBuild)) {
      assertEquals(0, r.exit(), r.err());
      assertEquals("", r.err());
      assertEquals(String.join("\n", "-cp", root + "/cli/target/isowatch.jar:" + root + "/cli/target/lib/*",
          "io.isowatch.cli.Main", "--version", ""), r.out());
    }
    final List<String> calls = Files.readAllLines(tmp.resolve("java.log"));
    // Training + failed dump + command, the command alone, then training + failed dump + command again.
    assertEquals(3 + 1 + 3, calls.size(), calls.toString());
    assertEquals(List.of("isowatch.jar", "isowatch.jsa.java", "lib"), targetFiles());
  }

  @Test
  void shouldRemakeTheArchiveWhenTheJarOrALibraryChanges() throws Exception {
    // Given
    builtAMinuteAfterTheSources(FAKE_CDS_JAVA);
    final Path log = tmp.resolve("java.log");
    final Map<String, String> env = Map.of("FAKE_JAVA_LOG", log.toString());
    run(env, "--version");
    final Path stamp = root.resolve("cli/target/isowatch.jsa.java");
    Files.setLastModifiedTime(stamp, FileTime.from(Instant.now().minusSeconds(30)));

    // When: the jar is rebuilt, then (later) a library in lib/ is replaced.
    builtAt(Instant.now().minusSeconds(20));
    run(env, "--version");
    Files.setLastModifiedTime(stamp, FileTime.from(Instant.now().minusSeconds(10)));
    Files.writeString(root.resolve("cli/target/lib/core.jar"), "");
    run(env, "--version");
    run(env, "--version");

    // Then: made three times (2 JVMs each), and the command ran four times.
    assertEquals(3 * 2 + 4, Files.readAllLines(log).size());
  }

  @Test
  void shouldNeitherMakeNorMapTheArchiveWhenIsowatchCdsIsOff() throws Exception {
    // Given
    fake("mvn", FAKE_MVN);
    fake("java", FAKE_CDS_JAVA);
    builtAt(Instant.now());

    // When
    final Result r = run(Map.of("FAKE_JAVA_LOG", tmp.resolve("java.log").toString(), "ISOWATCH_CDS", "off",
        "ISOWATCH_JAVA_OPTS", "-Xmx1g"), "--version");

    // Then
    assertEquals(String.join("\n", "-Xmx1g", "-cp", root + "/cli/target/isowatch.jar:" + root + "/cli/target/lib/*",
        "io.isowatch.cli.Main", "--version", ""), r.out());
    assertEquals(1, Files.readAllLines(tmp.resolve("java.log")).size());
    assertEquals(List.of("isowatch.jar", "lib"), targetFiles());
  }

  /**
   * The real JVM on a real (tiny) jar: the archive is made and its classes are loaded from it; then,
   * with the archive corrupted, the command still runs with a clean stdout and stderr.
   */
  @Test
  void shouldMapARealArchiveAndFallBackSilentlyWhenTheJvmCannotMapIt() throws Exception {
    // Given: a jar whose io.isowatch.cli.Main prints its arguments.
    stubJar();
    final String java = Path.of(System.getProperty("java.home"), "bin").toString();
    final String path = java + ":/usr/bin:/bin";

    // When
    final Result made = run(root.resolve("isowatch"), path,
        Map.of("ISOWATCH_JAVA_OPTS", "-Xlog:class+load=info"), "check", "--json", "h.jsonl");
    final Path cds = root.resolve("cli/target/isowatch.jsa");
    final boolean archived = Files.size(cds) > 0;
    Files.setPosixFilePermissions(cds, PosixFilePermissions.fromString("rw-r--r--"));
    Files.write(cds, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}); // corrupt, and newer than the jar
    final Result corrupt = run(root.resolve("isowatch"), path, Map.of(), "check", "--json", "h.jsonl");

    // Then
    assertEquals(0, made.exit(), made.err());
    assertTrue(archived);
    assertTrue(made.out().contains("io.isowatch.cli.Main source: shared objects file"), made.out());
    assertEquals(0, corrupt.exit(), corrupt.err());
    assertEquals("", corrupt.err());
    assertEquals("STUB check --json h.jsonl\n", corrupt.out());
  }

  /** Compiles a stub io.isowatch.cli.Main into cli/target/isowatch.jar, with one library in lib/. */
  private void stubJar() throws IOException {
    final Path src = Files.createDirectories(tmp.resolve("stub/io/isowatch/cli")).resolve("Main.java");
    Files.writeString(src, "package io.isowatch.cli;\npublic final class Main {\n"
        + "  public static void main(String[] a) { System.out.println(\"STUB \" + String.join(\" \", a)); }\n}\n");
    final var javac = javax.tools.ToolProvider.getSystemJavaCompiler();
    assertEquals(0, javac.run(null, null, null, "-d", tmp.resolve("classes").toString(), src.toString()));
    Files.createDirectories(root.resolve("cli/target/lib"));
    try (var jar = new java.util.jar.JarOutputStream(Files.newOutputStream(root.resolve("cli/target/isowatch.jar")))) {
      jar.putNextEntry(new java.util.jar.JarEntry("io/isowatch/cli/Main.class"));
      jar.write(Files.readAllBytes(tmp.resolve("classes/io/isowatch/cli/Main.class")));
      jar.closeEntry();
    }
    try (var lib = new java.util.jar.JarOutputStream(Files.newOutputStream(root.resolve("cli/target/lib/empty.jar")))) {
      lib.putNextEntry(new java.util.jar.JarEntry("x.txt"));
      lib.closeEntry();
    }
    setAllSourcesTo(Instant.now().minusSeconds(120));
  }

  private List<String> targetFiles() throws IOException {
    try (var s = Files.list(root.resolve("cli/target"))) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private void fake(final String name, final String body) throws IOException {
    final Path f = bin.resolve(name);
    Files.writeString(f, body);
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** Fakes mvn and java, with a jar built a minute ago and every source two minutes ago. */
  private void builtAMinuteAfterTheSources(final String fakeJava) throws IOException {
    fake("mvn", FAKE_MVN);
    fake("java", fakeJava);
    builtAt(Instant.now().minusSeconds(60));
    setAllSourcesTo(Instant.now().minusSeconds(120));
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
    // Long enough for a real JVM to make a class-data archive on a loaded machine.
    assertTrue(p.waitFor(180, TimeUnit.SECONDS), "the script did not finish");
    return new Result(p.exitValue(), stdout, stderr);
  }
}
