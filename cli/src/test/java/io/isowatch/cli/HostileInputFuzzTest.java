package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.core.format.InputLimits;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * Issue 10 item 7: every format's reader, fed malformed and adversarial files through the real
 * command line ({@link Main#commandLine} with the real services), answers with exit 0 or 1 and a
 * valid report, or exit 2 and only lines of the documented form ({@code isowatch: FILE: …}, or
 * {@code isowatch: cannot read FILE: …} when the bytes themselves cannot be read): never 3, never
 * a throwable escaping. The cases are generated from a seed ({@code -Disowatch.fuzz.seed},
 * {@code -Disowatch.fuzz.cases}); a failure names the case and its mutation, so it can be re-run.
 *
 * <p>The limits are made small here (system properties, as a user would) so that thousands of
 * cases cross them cheaply; {@link #shouldRefuseWithTheLimitsNameWhenInputExceedsADefaultLimit}
 * crosses the defaults themselves.
 */
class HostileInputFuzzTest {
  private static final Logger LOG = LoggerFactory.getLogger(HostileInputFuzzTest.class);
  private static final long SEED = Long.getLong("isowatch.fuzz.seed", 10L);
  private static final int CASES = Integer.getInteger("isowatch.fuzz.cases", 3000);
  private static final Map<String, String> SMALL_LIMITS = Map.of(
      InputLimits.MAX_DEPTH, "32", InputLimits.MAX_LINE_CHARS, "4096", InputLimits.MAX_STRING_CHARS, "256",
      InputLimits.MAX_NUMBER_CHARS, "40", InputLimits.MAX_OPS_PER_TXN, "64");
  private static final String[] FORMATS = {"auto", "jsonl", "text", "elle", "aion"};
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> saved = new HashMap<>();

  @TempDir Path tmp;

  /** A CLI run reused across cases: building the command line costs more than a small check. */
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private CommandLine cli;

  @BeforeAll
  static void smallLimits() {
    SMALL_LIMITS.forEach((k, v) -> {
      saved.put(k, System.getProperty("isowatch.input." + k));
      System.setProperty("isowatch.input." + k, v);
    });
  }

  @AfterAll
  static void restoreLimits() {
    saved.forEach((k, v) -> {
      if (v == null) {
        System.clearProperty("isowatch.input." + k);
      } else {
        System.setProperty("isowatch.input." + k, v);
      }
    });
  }

  @Test
  void shouldAnswerEveryMalformedFileWithAReportOrExit2WhenFuzzedFromASeed() throws Exception {
    // Given
    final List<Sample> samples = samples();
    final List<byte[]> bytes = samples.stream().map(Sample::bytes).toList();
    final SplittableRandom random = new SplittableRandom(SEED);
    final Map<String, Integer> kinds = new TreeMap<>();
    final Map<Integer, Integer> exits = new TreeMap<>();
    final Map<String, Long> millis = new TreeMap<>();
    final long started = System.nanoTime();
    final Path dir = scratch();

    for (int i = 0; i < CASES; i++) {
      // When
      final long tm = System.nanoTime();
      final Sample base = samples.get(random.nextInt(samples.size()));
      final Case c = mutate(base.bytes(), bytes, random);
      final Path file = Files.write(dir.resolve("case-" + (i % 16) + ".hist"), c.bytes());
      // Half the cases name the sample's own format, so that its reader sees the damage.
      final String[] args = args(random, file, random.nextBoolean() ? base.format() : pick(random, FORMATS));
      millis.merge("write", (System.nanoTime() - tm) / 1_000_000, Long::sum);
      final long t0 = System.nanoTime();
      final Run run = run(args);
      millis.merge(args[0] + (args.length > 6 && args[4].equals("--horizon-txns") ? "-segmented" : ""),
          (System.nanoTime() - t0) / 1_000_000, Long::sum);

      // Then
      kinds.merge(c.kind(), 1, Integer::sum);
      exits.merge(run.exit(), 1, Integer::sum);
      final int index = i;
      final long t1 = System.nanoTime();
      assertAnswered(run, file, () -> "case " + index + " (seed " + SEED + ", " + c.kind() + ", args "
          + String.join(" ", args) + ", bytes " + shown(c.bytes()) + ")");
      millis.merge("assert", (System.nanoTime() - t1) / 1_000_000, Long::sum);
    }
    if (!dir.startsWith(tmp)) {
      try (var files = Files.list(dir)) {
        for (final Path f : files.toList()) {
          Files.delete(f);
        }
      }
      Files.delete(dir);
    }
    final double seconds = (System.nanoTime() - started) / 1e9;
    // Every mutation kind ran, and the cases were not all refused (reports were checked too).
    assertEquals(Mutation.values().length, kinds.size(), kinds.toString());
    assertTrue(exits.getOrDefault(2, 0) > CASES / 10 && exits.getOrDefault(0, 0) + exits.getOrDefault(1, 0) > CASES / 20,
        "exit codes " + exits);
    LOG.info("Fuzzed cases=[{}] seconds=[{}] millisPerMode=[{}] kinds=[{}] exits=[{}]", CASES,
        String.format(java.util.Locale.ROOT, "%.1f", seconds), millis, kinds, exits);
  }

  @Test
  void shouldRefuseWithTheLimitsNameWhenInputExceedsADefaultLimit() throws Exception {
    // Given: the defaults, crossed by the known cases
    restoreLimits();
    try {
      final Map<String, byte[]> cases = new TreeMap<>();
      cases.put("elle:" + InputLimits.MAX_DEPTH, "#_[".repeat(100_000).getBytes(StandardCharsets.UTF_8));
      cases.put("elle:" + InputLimits.MAX_DEPTH + "#vector", ("[" + "[".repeat(100_000)).getBytes(StandardCharsets.UTF_8));
      cases.put("elle:" + InputLimits.MAX_DEPTH + "#json", ("[{\"type\":\"ok\",\"value\":" + "[".repeat(100_000))
          .getBytes(StandardCharsets.UTF_8));
      cases.put("elle:" + InputLimits.MAX_OPS_PER_TXN, ("{:type :ok, :process 0, :f :txn, :value ["
          + "[:w 1 2]".repeat(InputLimits.BUILT_IN.maxOpsPerTxn() + 1) + "]}").getBytes(StandardCharsets.UTF_8));
      cases.put("aion:" + InputLimits.MAX_OPS_PER_TXN, ("[{\"tid\":1,\"sid\":1,\"ops\":["
          + "{\"t\":\"r\",\"k\":1,\"v\":0},".repeat(InputLimits.BUILT_IN.maxOpsPerTxn()) + "{\"t\":\"r\",\"k\":1,\"v\":0}]}]")
          .getBytes(StandardCharsets.UTF_8));
      cases.put("aion:" + InputLimits.MAX_NUMBER_CHARS, ("[{\"tid\":" + "1".repeat(5000) + "}]").getBytes(StandardCharsets.UTF_8));
      cases.put("text:" + InputLimits.MAX_OPS_PER_TXN, "w(1,2,1,7)\n".repeat(InputLimits.BUILT_IN.maxOpsPerTxn() + 1)
          .getBytes(StandardCharsets.UTF_8));
      cases.put("aion:" + InputLimits.MAX_DEPTH, ("[" + "{\"a\":[".repeat(50_000)).getBytes(StandardCharsets.UTF_8));
      cases.put("jsonl:" + InputLimits.MAX_DEPTH, ("{\"pad\":" + "[".repeat(50_000)).getBytes(StandardCharsets.UTF_8));
      cases.put("jsonl:" + InputLimits.MAX_LINE_CHARS, ("{\"session\":\"s\",\"pad\":\""
          + "x".repeat(InputLimits.BUILT_IN.maxLineChars()) + "\"}\n").getBytes(StandardCharsets.UTF_8));
      cases.put("text:" + InputLimits.MAX_LINE_CHARS, (" ".repeat(InputLimits.BUILT_IN.maxLineChars() + 1))
          .getBytes(StandardCharsets.UTF_8));
      cases.put("elle:" + InputLimits.MAX_STRING_CHARS, ("{:type :ok, :error \""
          + "e".repeat(InputLimits.BUILT_IN.maxStringChars() + 1) + "\"}").getBytes(StandardCharsets.UTF_8));
      cases.put("aion:" + InputLimits.MAX_STRING_CHARS, ("[{\"tid\":\""
          + "1".repeat(InputLimits.BUILT_IN.maxStringChars() + 1) + "\"}]").getBytes(StandardCharsets.UTF_8));
      cases.put("elle:" + InputLimits.MAX_NUMBER_CHARS, ("{:type :ok, :time "
          + "9".repeat(1_000_000) + "}").getBytes(StandardCharsets.UTF_8));
      cases.put("jsonl:" + InputLimits.MAX_NUMBER_CHARS, ("{\"session\":\"s\",\"start\":"
          + "9".repeat(100_000) + "}").getBytes(StandardCharsets.UTF_8));
      cases.put("jsonl:" + InputLimits.MAX_OPS_PER_TXN, ("{\"session\":\"s\",\"txn\":\"t\",\"status\":\"committed\",\"ops\":["
          + "{\"t\":\"r\",\"k\":\"x\",\"v\":0},".repeat(InputLimits.BUILT_IN.maxOpsPerTxn()) + "{\"t\":\"r\",\"k\":\"x\",\"v\":0}]}")
          .getBytes(StandardCharsets.UTF_8));
      for (final Map.Entry<String, byte[]> c : cases.entrySet()) {
        final String format = c.getKey().substring(0, c.getKey().indexOf(':'));
        final String limit = c.getKey().substring(c.getKey().indexOf(':') + 1).replaceAll("#.*", "");
        final Path file = Files.write(tmp.resolve(format + ".hist"), c.getValue());

        // When
        final Run run = run(new String[] {"check", "--format", format, file.toString()});

        // Then: exit 2, one line naming the file, the line and the limit
        assertEquals(2, run.exit(), c.getKey() + ": " + run.err());
        assertEquals("", run.out(), c.getKey());
        assertTrue(Pattern.compile("isowatch: " + Pattern.quote(file.toString()) + ": line \\d+: .*\\(input limit "
            + limit + "=\\d+, system property isowatch\\.input\\." + limit + "\\)\n").matcher(run.err()).matches(),
            c.getKey() + ": " + run.err());
      }
    } finally {
      smallLimits();
    }
  }

  /** Where the cases are written: memory when the machine has it (a loaded disk is slower than the checks). */
  private Path scratch() throws IOException {
    final Path shm = Path.of("/dev/shm");
    return Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "isowatch-fuzz-") : tmp;
  }

  private void assertAnswered(final Run run, final Path file, final Supplier<String> what) {
    if (run.exit() == 0 || run.exit() == 1) {
      if (run.args()[0].equals("check")) {
        final JsonNode doc = parse(run.out(), what);
        assertTrue(doc.isObject() && doc.has("verdicts") && doc.has("stats"), () -> what.get() + ": " + run.out());
      }
      assertTrue(!run.err().contains("internal error") && !run.err().contains("\tat "),
          () -> what.get() + ": " + run.err());
      return;
    }
    if (run.exit() != 2) {
      fail(what.get() + ": exit " + run.exit() + "\nstderr: " + run.err());
    }
    assertEquals("", run.out(), what);
    assertTrue(!run.err().isEmpty(), what);
    final String name = Pattern.quote(file.toString());
    final Pattern line = Pattern.compile("isowatch: (" + name + ": |cannot read " + name + ": |cannot write " + name
        + " as ).+");
    for (final String l : run.err().split("\n", -1)) {
      if (!l.isEmpty()) {
        assertTrue(line.matcher(l).matches(), () -> what.get() + ": a line not of the documented form: " + l);
      }
    }
    assertTrue(run.err().endsWith("\n"), what);
  }

  private static JsonNode parse(final String text, final Supplier<String> what) {
    try {
      return JSON.readTree(text);
    } catch (final IOException e) {
      throw new AssertionError(what.get() + ": stdout is not one JSON document: " + text, e);
    }
  }

  private String[] args(final SplittableRandom random, final Path file, final String format) {
    return switch (random.nextInt(8)) {
      case 0, 1 -> new String[] {"check", "--json", "--format", format, "--horizon-txns", "3", "--grace", "1ms",
          file.toString()};
      case 2 -> new String[] {"convert", "--from", format, "--to", random.nextBoolean() ? "jsonl" : "text",
          file.toString()};
      case 3 -> new String[] {"check", "--json", "--initial-value", "null", "--format", format, file.toString()};
      default -> new String[] {"check", "--json", "--format", format, file.toString()};
    };
  }

  private Run run(final String[] args) {
    if (cli == null) {
      cli = Main.commandLine(Services.real());
      cli.setOut(new PrintWriter(out, true));
      cli.setErr(new PrintWriter(err, true));
    }
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    final int exit;
    try {
      exit = cli.execute(args);
    } catch (final Throwable t) {
      throw new AssertionError(String.join(" ", args) + ": a throwable escaped the command line", t);
    }
    return new Run(args, exit, out.toString(), err.toString());
  }

  private record Run(String[] args, int exit, String out, String err) {}

  private record Case(String kind, byte[] bytes) {}

  /** What a case does to a valid sample. */
  private enum Mutation {
    AS_IS, TRUNCATE, FLIP_BYTES, INSERT_BYTES, DEEP_NESTING, LONG_LINE, LONG_STRING, LONG_NUMBER, MANY_OPS, GZIP,
    GZIP_GARBAGE, EMPTY, NULS, INVALID_UTF8, SPLICE, DUPLICATE_LINES, RANDOM_BYTES, CRLF_AND_BOM
  }

  private static Case mutate(final byte[] base, final List<byte[]> samples, final SplittableRandom r) throws IOException {
    final Mutation m = Mutation.values()[r.nextInt(Mutation.values().length)];
    final byte[] b = switch (m) {
      case AS_IS -> base;
      case TRUNCATE -> java.util.Arrays.copyOf(base, r.nextInt(base.length));
      case FLIP_BYTES -> flip(base, r, 1 + r.nextInt(6));
      case INSERT_BYTES -> insert(base, r.nextInt(base.length + 1), pick(r, INSERTS).getBytes(StandardCharsets.UTF_8));
      case DEEP_NESTING -> insert(base, r.nextInt(base.length + 1),
          // A third deep enough to overflow any recursion (the known case: 100,000 nested #_[ in EDN).
          pick(r, NESTERS).repeat(r.nextInt(3) == 0 ? 100_000 : 20 + r.nextInt(3000)).getBytes(StandardCharsets.UTF_8));
      case LONG_LINE -> insert(base, r.nextInt(base.length + 1),
          "x".repeat(4000 + r.nextInt(2000)).getBytes(StandardCharsets.UTF_8));
      case LONG_STRING -> insert(base, r.nextInt(base.length + 1),
          ("\"" + "s".repeat(200 + r.nextInt(400)) + "\"").getBytes(StandardCharsets.UTF_8));
      case LONG_NUMBER -> insert(base, r.nextInt(base.length + 1),
          ((r.nextBoolean() ? "-" : "") + "7".repeat(15 + r.nextInt(60))).getBytes(StandardCharsets.UTF_8));
      case MANY_OPS -> manyOps(r, 50 + r.nextInt(40));
      case GZIP -> gzip(base);
      case GZIP_GARBAGE -> r.nextBoolean() ? flip(gzip(base), r, 1 + r.nextInt(4))
          : java.util.Arrays.copyOf(gzip(base), 2 + r.nextInt(gzip(base).length - 2));
      case EMPTY -> pick(r, new String[] {"", " ", "\n\n", "\uFEFF", "[]", "{}", "[", "#_"}).getBytes(StandardCharsets.UTF_8);
      case NULS -> overwrite(base, r, (byte) 0);
      case INVALID_UTF8 -> insert(base, r.nextInt(base.length + 1), new byte[] {(byte) 0xC0, (byte) 0xFF, (byte) 0xED,
          (byte) 0xA0, (byte) 0x80, (byte) 0xF4, (byte) 0x90});
      case SPLICE -> splice(base, samples.get(r.nextInt(samples.size())), r);
      case DUPLICATE_LINES -> duplicateLines(base, r);
      case RANDOM_BYTES -> randomBytes(r, r.nextInt(200));
      case CRLF_AND_BOM -> ("\uFEFF" + new String(base, StandardCharsets.UTF_8).replace("\n", r.nextBoolean() ? "\r\n" : "\r"))
          .getBytes(StandardCharsets.UTF_8);
    };
    return new Case(m.name(), b);
  }

  private static final String[] INSERTS = {"{", "}", "[", "]", "(", ")", "\"", "\\", ",", ":", "#_", "#", "##NaN",
      "#inst", "\\u", ";", "\n", "null", "nil", "-", "1e999999", "9223372036854775808", "-9223372036854775809",
      "{\"ops\":", "r(1,2,3,4)", "w(-1,-1,-1,-1)", ":type :ok", "\u0000", "\u2028", "\uD800", "NaN", "true"};
  private static final String[] NESTERS = {"[", "{\"a\":", "#_[", "#_", "(", "#{", "#tag ", "{:a ", "[{\"k\":"};

  private static byte[] manyOps(final SplittableRandom r, final int n) {
    final StringBuilder sb = new StringBuilder();
    switch (r.nextInt(4)) {
      case 0 -> {
        sb.append("{\"session\":\"s\",\"txn\":\"t\",\"status\":\"committed\",\"ops\":[");
        for (int i = 0; i < n; i++) {
          sb.append(i == 0 ? "" : ",").append("{\"t\":\"w\",\"k\":\"k").append(i).append("\",\"v\":").append(i + 1).append('}');
        }
        sb.append("]}\n");
      }
      case 1 -> {
        for (int i = 0; i < n; i++) {
          sb.append("w(").append(i).append(',').append(i + 1).append(",1,1)\n");
        }
      }
      case 2 -> {
        sb.append("{:type :ok, :process 0, :f :txn, :value [");
        for (int i = 0; i < n; i++) {
          sb.append("[:w ").append(i).append(' ').append(i + 1).append(']');
        }
        sb.append("]}\n");
      }
      default -> {
        sb.append("[{\"tid\":1,\"sid\":1,\"ops\":[");
        for (int i = 0; i < n; i++) {
          sb.append(i == 0 ? "" : ",").append("{\"t\":\"w\",\"k\":").append(i).append(",\"v\":").append(i + 1).append('}');
        }
        sb.append("]}]");
      }
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] flip(final byte[] in, final SplittableRandom r, final int n) {
    final byte[] b = in.clone();
    for (int i = 0; i < n && b.length > 0; i++) {
      b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
    }
    return b;
  }

  private static byte[] overwrite(final byte[] in, final SplittableRandom r, final byte with) {
    final byte[] b = in.clone();
    for (int i = 0; i < 1 + r.nextInt(5) && b.length > 0; i++) {
      b[r.nextInt(b.length)] = with;
    }
    return b;
  }

  private static byte[] insert(final byte[] in, final int at, final byte[] what) {
    final byte[] b = new byte[in.length + what.length];
    System.arraycopy(in, 0, b, 0, at);
    System.arraycopy(what, 0, b, at, what.length);
    System.arraycopy(in, at, b, at + what.length, in.length - at);
    return b;
  }

  private static byte[] splice(final byte[] a, final byte[] b, final SplittableRandom r) {
    final int cutA = r.nextInt(a.length + 1);
    final int cutB = r.nextInt(b.length + 1);
    final byte[] out = new byte[cutA + b.length - cutB];
    System.arraycopy(a, 0, out, 0, cutA);
    System.arraycopy(b, cutB, out, cutA, b.length - cutB);
    return out;
  }

  private static byte[] duplicateLines(final byte[] in, final SplittableRandom r) {
    final List<String> lines = new ArrayList<>(List.of(new String(in, StandardCharsets.UTF_8).split("\n", -1)));
    final int i = r.nextInt(lines.size());
    lines.add(r.nextInt(lines.size() + 1), lines.get(i));
    return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] randomBytes(final SplittableRandom r, final int n) {
    final byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) r.nextInt(256);
    }
    return b;
  }

  private static byte[] gzip(final byte[] in) throws IOException {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
      gz.write(in);
    }
    return bytes.toByteArray();
  }

  private static String pick(final SplittableRandom r, final String[] from) {
    return from[r.nextInt(from.length)];
  }

  private record Sample(String format, byte[] bytes) {}

  private static List<Sample> samples() throws IOException {
    final List<Sample> samples = new ArrayList<>();
    try (var files = Files.list(CliRun.REPO_ROOT.resolve("samples"))) {
      for (final Path p : files.filter(p -> !p.getFileName().toString().endsWith(".md")).sorted().toList()) {
        final String name = p.getFileName().toString();
        final String format = name.endsWith(".jsonl") ? "jsonl" : name.endsWith(".txt") ? "text"
            : name.contains("aion") ? "aion" : "elle";
        samples.add(new Sample(format, Files.readAllBytes(p)));
      }
    }
    assertTrue(samples.size() >= 5, "samples of every format: " + samples.size());
    return samples;
  }

  /** The first bytes of a case, escaped, to reproduce it from the failure message. */
  private static String shown(final byte[] b) {
    final String s = new String(b, 0, Math.min(b.length, 300), StandardCharsets.ISO_8859_1);
    final StringBuilder sb = new StringBuilder("'");
    for (final char c : s.toCharArray()) {
      sb.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\x%02x", (int) c));
    }
    return sb.append(b.length > 300 ? "'… (" + b.length + " bytes)" : "'").toString();
  }
}
