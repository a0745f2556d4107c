package io.isowatch.cli.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code isowatch run --config FILE} in a child JVM, so that its RSS, heap and CPU time are its
 * own: read from {@code /proc/<pid>} and {@code jcmd <pid> GC.heap_info}.
 */
final class CheckerProcess implements AutoCloseable {
  private static final Pattern HEAP_USED = Pattern.compile("total (\\d+)K, used (\\d+)K");
  private static final long CLOCK_TICKS_PER_SECOND = 100;

  private final Process process;
  private final int httpPort;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private CheckerProcess(final Process process, final int httpPort) {
    this.process = process;
    this.httpPort = httpPort;
  }

  /**
   * Starts the checker.
   *
   * @param classPath the checker's class path (the built jar and its libraries)
   * @param jvmOptions options of the child JVM (heap, JFR...)
   */
  static CheckerProcess start(final String classPath, final List<String> jvmOptions, final Path config,
      final int httpPort, final Path log) throws IOException {
    final List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", classPath, "io.isowatch.cli.Main", "run", "--config", config.toString()));
    final Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new CheckerProcess(p, httpPort);
  }

  long pid() {
    return process.pid();
  }

  boolean alive() {
    return process.isAlive();
  }

  /** The exit status, or "running". */
  String exitStatus() {
    return process.isAlive() ? "running" : Integer.toString(process.exitValue());
  }

  /** Waits until {@code /health} reports RUNNING. */
  void awaitRunning(final Duration timeout) throws InterruptedException {
    final long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("the checker exited with status " + process.exitValue());
      }
      try {
        final HttpResponse<String> r = http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/health")).build(),
            HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200 && r.body().startsWith("RUNNING")) {
          return;
        }
      } catch (final IOException notYet) {
        // The endpoint is not up yet: poll again.
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("the checker did not reach RUNNING within " + timeout);
  }

  /** The {@code /metrics} page. */
  String metrics() throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  /** Resident set size in KiB ({@code VmRSS} of /proc/PID/status). */
  long rssKib() throws IOException {
    return statusField("VmRSS:");
  }

  /** Peak resident set size in KiB ({@code VmHWM}). */
  long peakRssKib() throws IOException {
    return statusField("VmHWM:");
  }

  private long statusField(final String name) throws IOException {
    for (final String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
      if (line.startsWith(name)) {
        return Long.parseLong(line.substring(name.length()).trim().split("\\s+")[0]);
      }
    }
    throw new IOException(name + " not in /proc/" + process.pid() + "/status");
  }

  /** User + system CPU time of the process so far, in seconds (/proc/PID/stat fields 14 and 15). */
  double cpuSeconds() throws IOException {
    final String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
    // The command name (field 2) is in parentheses and may hold spaces: count after its end.
    final String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / (double) CLOCK_TICKS_PER_SECOND;
  }

  /**
   * CPU seconds per thread group so far, largest first: threads named alike (digits removed, e.g.
   * every {@code GC Thread#N}) are summed; native threads (RocksDB, GC, JIT) are included.
   */
  Map<String, Double> threadCpuSeconds() throws IOException {
    final Map<String, Double> byName = new HashMap<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(process.pid()), "task"))) {
      for (final Path task : tasks) {
        try {
          final String name = Files.readString(task.resolve("comm")).trim().replaceAll("[0-9a-f]{8}-[0-9a-f-]{27}", "")
              .replaceAll("[0-9]+", "N");
          final String stat = Files.readString(task.resolve("stat"));
          final String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          byName.merge(name, (Long.parseLong(f[11]) + Long.parseLong(f[12])) / (double) CLOCK_TICKS_PER_SECOND,
              Double::sum);
        } catch (final NoSuchFileException exited) {
          // The thread ended while being read: its time is gone from /proc, nothing to add.
        }
      }
    }
    final Map<String, Double> sorted = new LinkedHashMap<>();
    byName.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }

  /** Heap used and committed in KiB, from {@code jcmd PID GC.heap_info}: {used, total}. */
  long[] heapKib() throws IOException, InterruptedException {
    final Process jcmd = new ProcessBuilder("jcmd", Long.toString(process.pid()), "GC.heap_info")
        .redirectErrorStream(true).start();
    final String out = new String(jcmd.getInputStream().readAllBytes());
    jcmd.waitFor(30, TimeUnit.SECONDS);
    final Matcher m = HEAP_USED.matcher(out);
    if (!m.find()) {
      throw new IOException("unexpected jcmd GC.heap_info output: " + out);
    }
    return new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(1))};
  }

  /** SIGTERM, then waits for a clean stop (commit, close). */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }
}
