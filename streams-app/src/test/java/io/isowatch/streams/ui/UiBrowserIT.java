package io.isowatch.streams.ui;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyTransaction;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.avro.AnomalyRecords;
import io.isowatch.schemas.avro.TransactionEvents;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.CheckerApp;
import io.isowatch.streams.IsoWatchStreamsConfig;
import io.isowatch.streams.testkit.CheckerItConfig;
import io.isowatch.streams.testkit.EmbeddedKafka;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web UI in a real headless Chromium (Debian's {@code chromium} and {@code chromium-driver},
 * driven by Selenium): a real in-JVM broker and the real registry, the checker app with its UI and
 * a bearer token, two tenants' histories (one with injected anomalies, one clean) published to the
 * input topic. The browser signs in with the token link, waits for the injected lost update in the
 * feed, checks the verdicts and a filter, opens the anomaly and checks its SVG graph in the DOM.
 * Screenshots go to {@code target/ui-screenshots/}. Without the browser (a machine where only the
 * JDK and Maven are installed) it is skipped with the reason below; {@code .ci/run} installs the
 * browser and fails if this test was skipped.
 */
@Tag("integration")
@EnabledIf(value = "browserInstalled", disabledReason = UiBrowserIT.NO_BROWSER)
class UiBrowserIT {
  static final String NO_BROWSER = "UiBrowserIT skipped: it needs Debian's chromium and chromedriver"
      + " (/usr/bin/chromium, /usr/bin/chromedriver, or -Disowatch.chromium= and -Disowatch.chromedriver=);"
      + " enable it with: apt-get install -y chromium chromium-driver";
  private static final Logger LOG = LoggerFactory.getLogger(UiBrowserIT.class);

  @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final Path CHROMIUM = Path.of(System.getProperty("isowatch.chromium", "/usr/bin/chromium"));
  private static final Path CHROMEDRIVER =
      Path.of(System.getProperty("isowatch.chromedriver", "/usr/bin/chromedriver"));
  private static final Path SCREENSHOTS = Path.of("target", "ui-screenshots");
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final String TOKEN = "it-token-5f2c";
  private static final String TENANT = "acme";
  private static final String CANARY = "canary";
  private static final Topics TOPICS = Topics.defaults();

  @TempDir Path dir;

  private final AvroSerdes serdes = new AvroSerdes(AvroSerdeConfig.development(REGISTRY.url()));
  private WebDriver browser;

  @BeforeEach
  void startBrowser() throws Exception {
    Files.deleteIfExists(SCREENSHOTS.resolve("failure.png"));
    final ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--window-size=1440,1100");
    final ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
    browser = new ChromeDriver(service, options);
  }

  /** Whether the browser and its driver are installed: without them the class is skipped, not failed. */
  static boolean browserInstalled() {
    final boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    if (!installed) {
      // Surefire's console shows only "Skipped: 1"; the reason must be visible where it is read.
      LOG.warn(NO_BROWSER);
    }
    return installed;
  }

  @AfterEach
  void stopBrowser() {
    if (browser != null) {
      browser.quit();
    }
  }

  @Test
  void shouldShowTheInjectedLostUpdateInTheFeedAndItsGraphWhenTheCheckerFindsIt() throws Exception {
    // Given: a tenant with an injected lost update and write skew, and a clean canary tenant.
    final History history = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults()
        .withSeed(7).withTransactions(200).withSessions(6).withKeys(20)
        .withInjections(Injection.parseList("LostUpdate:1,WriteSkew:1")));
    final History clean = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults()
        .withSeed(8).withTransactions(150).withSessions(4).withKeys(20));
    final CheckResult expected = OnlineChecker.check(
        new History(recent(TENANT, history).stream().map(TransactionEvents::toCore).toList()), CheckOptions.defaults());
    final Anomaly lostUpdate = expected.anomalies().stream()
        .map(a -> AnomalyRecords.toAvro(TENANT, a, 0L, null))
        .filter(a -> "LostUpdate".equals(a.getName())).findFirst().orElseThrow();
    KAFKA.createTopics(TOPICS.all());

    final CheckResult canaryExpected = OnlineChecker.check(
        new History(recent(CANARY, clean).stream().map(TransactionEvents::toCore).toList()), CheckOptions.defaults());

    try (CheckerApp app = CheckerApp.start(new IsoWatchStreamsConfig(appConfig()))) {
      // When: the checker runs and the events arrive, each tenant's last followed by a later one.
      await().atMost(PATIENCE).until(() -> app.state() == KafkaStreams.State.RUNNING);
      produce(withTick(recent(TENANT, history)));
      produce(withTick(recent(CANARY, clean)));
      // Then: what the browser shows.
      browse("http://127.0.0.1:" + app.httpPort(), expected, lostUpdate, canaryExpected);
    } catch (final RuntimeException | AssertionError e) {
      // What the browser showed when it failed, next to the other screenshots.
      screenshot("failure.png");
      throw e;
    }
  }

  /**
   * Signs in with the token link, checks the feed, the verdicts and a filter, opens the lost update
   * and checks its page and graph; screenshots of both pages.
   */
  private void browse(final String base, final CheckResult expected, final Anomaly lostUpdate,
      final CheckResult canaryExpected) throws Exception {
    {
      browser.get(base + "/?token=" + TOKEN);
      // The token link set the cookie and left the address bar.
      assertEquals(base + "/", browser.getCurrentUrl());
      // The page re-renders every two seconds: an element read between two renders is stale, retried.
      final WebDriverWait wait = new WebDriverWait(browser, PATIENCE);
      wait.ignoring(StaleElementReferenceException.class);
      // The injected lost update appears in the feed, by name.
      final By lostRow = By.cssSelector("tr.anomaly-row[data-anomaly-id='" + lostUpdate.getUniqueId() + "']");
      wait.withMessage("the injected lost update in the feed").until(d -> !d.findElements(lostRow).isEmpty()
          && "LostUpdate".equals(d.findElement(lostRow).findElement(By.cssSelector(".anomaly-name")).getText()));
      // The tenants' verdicts per level, as the engine decides them for the same histories.
      assertTrue(verdicts(expected).contains("SER:VIOLATED"), verdicts(expected).toString());
      wait.withMessage("verdicts of " + TENANT + ": " + verdicts(expected))
          .until(d -> levels(TENANT).equals(verdicts(expected)));
      wait.withMessage("verdicts of " + CANARY + ": " + verdicts(canaryExpected))
          .until(d -> levels(CANARY).equals(verdicts(canaryExpected)));
      // Every anomaly of both tenants, and nothing else.
      final int anomalies = expected.anomalies().size() + canaryExpected.anomalies().size();
      wait.withMessage(anomalies + " anomalies in the feed")
          .until(d -> d.findElements(By.cssSelector("tr.anomaly-row")).size() == anomalies);
      screenshot("overview.png");
      // The type filter keeps only lost updates.
      new Select(browser.findElement(By.id("f-type"))).selectByValue("LostUpdate");
      wait.withMessage("only lost updates after filtering").until(d -> d.getCurrentUrl().endsWith("?type=LostUpdate")
          && d.findElements(By.cssSelector("tr.anomaly-row .anomaly-name")).stream()
              .allMatch(e -> "LostUpdate".equals(e.getText())));

      // When: the lost update is opened.
      wait.until(d -> {
        d.findElement(lostRow).findElement(By.cssSelector("a.anomaly-name")).click();
        return true;
      });

      // Then: its graph is in the DOM: one node per transaction, one labelled edge per cycle edge.
      wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#graph svg.anomaly-graph")));
      final List<String> nodeTxns = browser.findElements(By.cssSelector("#graph svg g.node")).stream()
          .map(e -> e.getAttribute("data-txn")).toList();
      assertEquals(lostUpdate.getTransactions().stream().map(AnomalyTransaction::getTxn).toList(), nodeTxns);
      final List<WebElement> edges = browser.findElements(By.cssSelector("#graph svg g.edge"));
      assertEquals(lostUpdate.getCycle().size(), edges.size());
      final List<String> labels = new ArrayList<>();
      edges.forEach(e -> labels.add(e.findElement(By.cssSelector("text.edge-label")).getText()));
      assertEquals(lostUpdate.getCycle().stream()
          .map(e -> e.getKind() + " " + e.getKey() + "=" + e.getValue()).toList(), labels);
      assertEquals("LostUpdate", browser.findElement(By.id("a-name")).getText());
      assertEquals(lostUpdate.getUniqueId(), browser.findElement(By.id("a-id")).getText());
      assertEquals(lostUpdate.getExplanation().strip(),
          browser.findElement(By.id("a-explanation")).getText().strip());
      assertEquals(lostUpdate.getTransactions().size(), browser.findElements(By.cssSelector("#a-txns tr")).size());
      assertFalse(browser.findElement(By.id("a-txns")).getText().isBlank());
      screenshot("anomaly-lost-update.png");
    }
  }

  /** The verdicts of a tenant's card, {@code LEVEL:VERDICT} weakest first, as the UI lists them. */
  private List<String> levels(final String tenant) {
    return browser.findElements(By.cssSelector(".tenant[data-tenant='" + tenant + "'] .level")).stream()
        .map(e -> e.findElement(By.cssSelector(".name")).getText() + ":"
            + e.findElement(By.cssSelector(".verdict")).getText()).toList();
  }

  private static List<String> verdicts(final CheckResult r) {
    return io.isowatch.core.check.Level.weakestFirst(io.isowatch.core.check.Level.CLASSIC).stream()
        .filter(r.verdicts()::containsKey)
        .map(l -> l.name() + ":" + r.verdicts().get(l).name()).toList();
  }

  /**
   * The history's events for a tenant in end-time order (as clients that publish on commit send
   * them), shifted so that the last transaction ended two seconds ago.
   */
  private static List<TransactionEvent> recent(final String tenant, final History h) {
    final List<TransactionEvent> raw = h.transactions().stream().map(t -> TransactionEvents.fromCore(tenant, t))
        .sorted(java.util.Comparator.comparingLong(TransactionEvent::getEndMicros)).toList();
    final long lastEnd = raw.get(raw.size() - 1).getEndMicros();
    final long shift = System.currentTimeMillis() * 1_000L - 2_000_000L - lastEnd;
    return raw.stream().map(e -> TransactionEvent.newBuilder(e)
        .setStartMicros(e.getStartMicros() + shift).setEndMicros(e.getEndMicros() + shift).build()).toList();
  }

  /**
   * The events and, last, a read-only transaction of the same tenant that ended ten seconds later:
   * it moves the tenant's watermark (grace 5 s, the default) past every other event, so all of them
   * are checked, in canonical order.
   */
  private static List<TransactionEvent> withTick(final List<TransactionEvent> events) {
    final TransactionEvent last = events.get(events.size() - 1);
    final List<TransactionEvent> out = new ArrayList<>(events);
    out.add(TransactionEvent.newBuilder().setTenant(last.getTenant()).setSession("tick").setSeq(0L).setTxn("tick")
        .setStatus(TxnStatus.COMMITTED).setStartMicros(last.getEndMicros() + 9_000_000)
        .setEndMicros(last.getEndMicros() + 10_000_000).setOps(List.of(new Op(OpType.READ, "tick", 0L, null))).build());
    return out;
  }

  private Map<String, Object> appConfig() {
    final Map<String, Object> p = CheckerItConfig.base(KAFKA.bootstrapServers(), REGISTRY.url(),
        "it-ui-checker", dir.resolve("state"));
    p.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "0");
    p.put(IsoWatchStreamsConfig.HTTP_HOST_CONFIG, "127.0.0.1");
    p.put(IsoWatchStreamsConfig.HTTP_AUTH_TOKEN_CONFIG, TOKEN);
    p.put(IsoWatchStreamsConfig.VERDICT_INTERVAL_MS_CONFIG, "300");
    return p;
  }

  private void produce(final List<TransactionEvent> events) throws Exception {
    try (KafkaProducer<String, TransactionEvent> producer = producer()) {
      for (final TransactionEvent e : events) {
        producer.send(new ProducerRecord<>(TOPICS.txnEvents().name(), e.getTenant(), e)).get();
      }
    }
  }

  private KafkaProducer<String, TransactionEvent> producer() {
    return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
        ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(),
        serdes.valueSerde(TransactionEvent.class).serializer());
  }

  /** A screenshot of the whole page: the window grows to the page's height first. */
  private void screenshot(final String name) throws Exception {
    Files.createDirectories(SCREENSHOTS);
    final Object height = ((JavascriptExecutor) browser).executeScript(
        "return document.documentElement.scrollHeight");
    browser.manage().window().setSize(new Dimension(1440, Math.max(900, ((Number) height).intValue() + 140)));
    final File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
    Files.copy(shot.toPath(), SCREENSHOTS.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }
}
