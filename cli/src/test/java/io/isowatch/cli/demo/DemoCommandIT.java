package io.isowatch.cli.demo;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.cli.Main;
import io.isowatch.cli.Services;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code isowatch demo} end to end, in this JVM: it starts a real broker, the real registry (a child
 * process), the checker and its agents, prints the faulty store's anomalies as broken promises
 * (and the same lost update as broken under postgres:repeatable-read, allowed under read committed)
 * with their UI page, decides every level a tenant is promised (read committed's RC too), serves that
 * page while it runs, and stops everything after {@code --duration}.
 */
@Tag("integration")
class DemoCommandIT {
  private static final Pattern UI = Pattern.compile("Web UI: (http://127\\.0\\.0\\.1:\\d+)/");
  private static final Pattern PAGE = Pattern.compile("(http://127\\.0\\.0\\.1:\\d+/anomaly\\.html\\?id=\\S+)");

  @Test
  void shouldPrintTheFaultyStoresAnomaliesAndStopEverythingWhenTheDurationEnds() throws Exception {
    // Given: a demo run with frequent faults, in the background
    final Writer buffer = new StringWriter();
    final PrintWriter out = new PrintWriter(buffer, true);
    final List<ProcessHandle> before = ProcessHandle.current().descendants().toList();
    final CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> {
      final var cl = Main.commandLine(Services.real());
      cl.setOut(out);
      cl.setErr(out);
      return cl.execute("demo", "--duration", "150s", "--http-port", "0", "--faults", "all=0.003",
          "--status-every", "5s");
    });

    // When: the faulty store's first broken promise is printed (the profile tenants' may come first)
    await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(1))
        .until(() -> exit.isDone() || text(buffer).lines()
            .anyMatch(l -> l.contains(" faulty ") && l.contains("BREAKS ITS PROMISE")));

    // Then: it is the faulty store's, its UI page is served, and everything stops at the end
    final String printed = text(buffer);
    assertTrue(printed.lines().anyMatch(l -> l.contains(" faulty ") && l.contains("BREAKS ITS PROMISE")), printed);
    final Matcher ui = UI.matcher(printed);
    assertTrue(ui.find(), printed);
    final Matcher page = PAGE.matcher(printed);
    assertTrue(page.find(), printed);
    final HttpClient http = HttpClient.newHttpClient();
    assertEquals(200, http.send(HttpRequest.newBuilder(URI.create(page.group(1))).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode(), page.group(1));
    final String id = page.group(1).substring(page.group(1).indexOf("?id=") + 4);
    final HttpResponse<String> detail = http.send(
        HttpRequest.newBuilder(URI.create(ui.group(1) + "/api/anomalies/" + id)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, detail.statusCode(), detail.body());

    assertEquals(DemoCommand.EXIT_OK, exit.get(4, TimeUnit.MINUTES), text(buffer));
    final String all = text(buffer);
    assertTrue(all.contains("isowatch demo: stopped"), all);
    assertTrue(all.lines().anyMatch(l -> l.startsWith("-- h2-snapshot") && l.contains("SI SATISFIED")), all);
    // The same lost update, judged by two promises: broken under repeatable read, allowed under read committed.
    assertTrue(all.lines().anyMatch(l -> l.contains(" pg-rr-sim ") && l.contains("LostUpdate")
        && l.endsWith("BREAKS ITS PROMISE (postgres:repeatable-read = SI)")), all);
    assertTrue(all.lines().anyMatch(l -> l.contains(" pg-rc-sim ") && l.contains("LostUpdate")
        && l.endsWith("weaker than SI but allowed by its promise (postgres:read-committed = RC)")), all);
    // Every promise is decided (check.levels covers them), the weak ones too: read committed's RC
    // holds while its lost updates violate SI; the SI canary's weaker levels hold.
    final String rc = lastStatus(all, "pg-rc-sim");
    assertTrue(rc.contains("RC SATISFIED") && rc.contains("SI VIOLATED"), rc);
    final String h2 = lastStatus(all, "h2-snapshot");
    assertTrue(h2.contains("RC SATISFIED") && h2.contains("RA SATISFIED") && h2.contains("CC SATISFIED")
        && h2.contains("PC SATISFIED") && h2.contains("SI SATISFIED"), h2);
    final List<ProcessHandle> left = ProcessHandle.current().descendants()
        .filter(p -> !before.contains(p)).filter(ProcessHandle::isAlive).toList();
    assertEquals(List.of(), left.stream().map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList());
  }

  @Test
  void shouldStopEverythingItStartedWhenInterruptedWithCtrlC() throws Exception {
    // Given: the demo as its own JVM, as ./isowatch runs it, until it is ready
    final Path output = Files.createTempFile("isowatch-demo-it-", ".out");
    final Process demo = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
        "-cp", System.getProperty("java.class.path"), Main.class.getName(), "demo", "--http-port", "0")
        .redirectErrorStream(true).redirectOutput(output.toFile()).start();
    try {
      await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(1))
          .until(() -> !demo.isAlive() || Files.readString(output).contains("isowatch demo: ready in"));
      assertTrue(demo.isAlive(), Files.readString(output));
      final List<ProcessHandle> started = demo.descendants().toList();
      assertTrue(started.stream().anyMatch(p -> p.info().commandLine().orElse("").contains("apicurio")),
          "the registry runs as the demo's child: " + started);

      // When: Ctrl-C
      assertEquals(0, new ProcessBuilder("kill", "-INT", Long.toString(demo.pid())).start().waitFor());

      // Then: an orderly stop, exit status 0, and no process of the demo's left
      assertTrue(demo.waitFor(2, TimeUnit.MINUTES), Files.readString(output));
      assertEquals(DemoCommand.EXIT_OK, demo.exitValue(), Files.readString(output));
      assertTrue(Files.readString(output).contains("isowatch demo: stopped"), Files.readString(output));
      assertEquals(List.of(), started.stream().filter(ProcessHandle::isAlive).map(ProcessHandle::pid).toList());
    } finally {
      demo.descendants().forEach(ProcessHandle::destroyForcibly);
      demo.destroyForcibly();
    }
  }

  /** The last status line printed for {@code tenant} (its final verdicts). */
  private static String lastStatus(final String printed, final String tenant) {
    return printed.lines().filter(l -> l.startsWith("-- " + tenant + " ")).reduce((a, b) -> b)
        .orElse("no status line for " + tenant + " in:\n" + printed);
  }

  private static String text(final Writer buffer) {
    synchronized (buffer) {
      return buffer.toString();
    }
  }
}
