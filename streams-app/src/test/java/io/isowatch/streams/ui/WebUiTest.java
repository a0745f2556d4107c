package io.isowatch.streams.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.schemas.Anomaly;
import io.isowatch.streams.PromisedLevels;
import io.isowatch.streams.metrics.CheckerMetrics;
import io.isowatch.streams.metrics.HealthAndMetricsServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The UI's HTTP surface on the real endpoint: API, pages, and the bearer token. */
class WebUiTest {
  private static final String TOKEN = "s3cret-token";
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

  @Test
  void shouldServeTheFeedDetailGraphAndPagesWhenNoTokenIsConfigured() throws Exception {
    // Given: the lost-update sample's anomalies and a verdict.
    final UiState state = new UiState(100);
    final List<Anomaly> anomalies = UiFixtures.lostUpdateSample("acme");
    anomalies.forEach(state::onAnomaly);
    state.onVerdict(UiFixtures.verdict("acme", 1_000_000L, 5));
    final Anomaly lost = anomalies.stream().filter(a -> "LostUpdate".equals(a.getName())).findFirst().orElseThrow();
    try (HealthAndMetricsServer server = server(state, Optional.empty())) {
      // When
      final JsonNode feed = json(get(server, "/api/anomalies?level=SI&tenant=acme", null));
      // The UI knows a checker's anomaly by its uniqueId (its anomalyId may be another's too).
      final JsonNode detail = json(get(server, "/api/anomalies/" + lost.getUniqueId(), null));
      final HttpResponse<String> svg = get(server, "/api/anomalies/" + lost.getUniqueId() + "/graph.svg", null);
      final JsonNode tenants = json(get(server, "/api/tenants", null));

      // Then
      assertTrue(feed.get("anomalies").findValuesAsText("anomalyId").contains(lost.getAnomalyId()), feed.toString());
      assertTrue(feed.get("anomalies").findValuesAsText("id").contains(lost.getUniqueId()), feed.toString());
      assertEquals("LostUpdate", detail.get("name").asText());
      assertEquals(lost.getCycle().size(), detail.get("cycle").size());
      assertEquals(lost.getExplanation(), detail.get("explanation").asText());
      assertEquals(lost.getTransactions().get(0).getOps().size(),
          detail.get("transactions").get(0).get("ops").size());
      assertEquals(200, svg.statusCode());
      assertTrue(svg.headers().firstValue("Content-Type").orElse("").startsWith("image/svg+xml"));
      assertTrue(svg.body().startsWith("<svg"), svg.body());
      assertEquals("acme", tenants.get("tenants").get(0).get("tenant").asText());
      // The record lists SER, SI (strongest first); the UI weakest first, as the text and JSON reports
      assertEquals("SI", tenants.get("tenants").get(0).get("levels").get(0).get("level").asText());
      assertEquals("SATISFIED", tenants.get("tenants").get(0).get("levels").get(0).get("verdict").asText());
      assertEquals("VIOLATED", tenants.get("tenants").get(0).get("levels").get(1).get("verdict").asText());
      final HttpResponse<String> index = get(server, "/", null);
      assertEquals(200, index.statusCode());
      assertTrue(index.body().contains("Anomaly feed"));
      assertEquals(200, get(server, "/static/overview.js", null).statusCode());
      assertEquals(200, get(server, "/metrics", null).statusCode());
      assertEquals(404, get(server, "/api/anomalies/nope", null).statusCode());
      assertEquals(404, get(server, "/static/../WebUi.class", null).statusCode());
      assertEquals(400, get(server, "/api/anomalies?level=XX", null).statusCode());
      // RC is a level of the topics since v4 (issue 12): filtering by it is no error
      assertEquals(200, get(server, "/api/anomalies?level=rc", null).statusCode());
    }
  }

  @Test
  void shouldShowTheMixedVerdictAndFilterItsCounterexampleWhenTheCheckerDecidesMixed() throws Exception {
    // Given: a tenant whose checker decides MIXED (check.levels=SER,MIXED): its counterexample lists
    // MIXED, another anomaly does not, and the verdict has a MIXED level
    final UiState state = new UiState(100);
    final Anomaly mixed = UiFixtures.simple("mix", "m1", "G-single", "LostUpdate",
        List.of(io.isowatch.schemas.Level.SER, io.isowatch.schemas.Level.MIXED), 1L);
    state.onAnomaly(mixed);
    state.onAnomaly(UiFixtures.simple("mix", "m2", "G2-item", "WriteSkew", List.of(io.isowatch.schemas.Level.SER), 2L));
    state.onVerdict(io.isowatch.schemas.TenantVerdict.newBuilder(UiFixtures.verdict("mix", 3L, 4)).setLevels(List.of(
        new io.isowatch.schemas.LevelVerdict(io.isowatch.schemas.Level.SER, io.isowatch.schemas.Verdict.VIOLATED,
            "LostUpdate"),
        new io.isowatch.schemas.LevelVerdict(io.isowatch.schemas.Level.MIXED, io.isowatch.schemas.Verdict.VIOLATED,
            "LostUpdate t1"))).build());
    try (HealthAndMetricsServer server = server(state, Optional.empty())) {
      // When
      final JsonNode feed = json(get(server, "/api/anomalies?level=mixed&tenant=mix", null));
      final JsonNode tenants = json(get(server, "/api/tenants", null));

      // Then: the filter keeps the counterexample only, and the tenant shows MIXED VIOLATED
      assertEquals(List.of("m1"), feed.get("anomalies").findValuesAsText("anomalyId"), feed.toString());
      assertTrue(tenants.toString().contains("\"MIXED\""), tenants.toString());
    }
  }

  @Test
  void shouldSayPromiseBrokenForOneTenantAndWeakerButAllowedForTheOtherWhenTheirProfilesDiffer() throws Exception {
    // Given: the same lost update (violating SSER, SER, SI) in a tenant on PostgreSQL REPEATABLE READ
    // and one on READ COMMITTED, each with a verdict of SER VIOLATED, SI SATISFIED
    final UiState state = new UiState(100);
    for (final String tenant : List.of("pg-rr", "pg-rc")) {
      state.onAnomaly(UiFixtures.simple(tenant, tenant + "-1", "G-single", "LostUpdate",
          List.of(io.isowatch.schemas.Level.SSER, io.isowatch.schemas.Level.SER, io.isowatch.schemas.Level.SI), 1L));
      state.onVerdict(UiFixtures.verdict(tenant, 1_000_000L, 5));
    }
    final PromisedLevels promised = PromisedLevels.parse(List.of(),
        List.of("pg-rr=postgres:repeatable-read", "pg-rc=postgres:read-committed"));
    try (HealthAndMetricsServer server = HealthAndMetricsServer.start("127.0.0.1", 0, new CheckerMetrics(),
        () -> new HealthAndMetricsServer.Health(true, "RUNNING"), Optional.empty(),
        Optional.of(new WebUi(state, promised)))) {
      // When
      final JsonNode tenants = json(get(server, "/api/tenants", null));
      final JsonNode feed = json(get(server, "/api/anomalies", null));
      // Then: tenants are listed by name
      final JsonNode rc = tenants.get("tenants").get(0).get("promise");
      final JsonNode rr = tenants.get("tenants").get(1).get("promise");
      assertEquals("postgres:read-committed", rc.get("spec").asText());
      assertEquals("KEPT", rc.get("outcome").asText());
      assertEquals("SER", rc.get("weakerThan").asText());
      assertEquals(JSON.readTree("[\"RC\",\"PL2\"]"), rc.get("unchecked"));
      assertEquals("postgres:repeatable-read", rr.get("spec").asText());
      assertEquals(JSON.readTree("[\"SER\"]"), rr.get("allowed"));
      for (final JsonNode a : feed.get("anomalies")) {
        assertEquals("pg-rr".equals(a.get("tenant").asText()), a.get("breaksPromise").asBoolean(), a.toString());
      }
      final JsonNode detail = json(get(server, "/api/anomalies/pg-rr-1", null));
      assertTrue(detail.get("breaksPromise").asBoolean(), detail.toString());
    }
  }

  @Test
  void shouldServeTheRetractionOfAnAnomalyInTheFeedAndItsDetailWhenItWasRetracted() throws Exception {
    // Given: the sample's lost update, then its retraction (the same record, retraction set)
    final UiState state = new UiState(100);
    final List<Anomaly> anomalies = UiFixtures.lostUpdateSample("acme");
    anomalies.forEach(state::onAnomaly);
    final Anomaly lost = anomalies.stream().filter(a -> "LostUpdate".equals(a.getName())).findFirst().orElseThrow();
    state.onAnomaly(Anomaly.newBuilder(lost)
        .setRetraction(new io.isowatch.schemas.AnomalyRetraction(7L, "W", "W arrived")).build());
    try (HealthAndMetricsServer server = server(state, Optional.empty())) {
      // When
      final JsonNode feed = json(get(server, "/api/anomalies", null));
      // The UI addresses an anomaly by its identity (its uniqueId; anomalyId on records without one).
      final String id = io.isowatch.schemas.AnomalyIds.identity(lost);
      final JsonNode detail = json(get(server, "/api/anomalies/" + id, null));

      // Then: the feed and the detail carry it; the others have none
      for (final JsonNode a : feed.get("anomalies")) {
        assertEquals(a.get("id").asText().equals(id), !a.get("retraction").isNull(), a.toString());
      }
      assertEquals("W", detail.get("retraction").get("causeTxn").asText());
      assertEquals("W arrived", detail.get("retraction").get("reason").asText());
      assertEquals(7L, detail.get("retraction").get("retractedAtMicros").asLong());
    }
  }

  @Test
  void shouldRefuseEveryPathButHealthWhenTheTokenIsMissingOrWrong() throws Exception {
    // Given
    try (HealthAndMetricsServer server = server(new UiState(10), Optional.of(TOKEN))) {
      for (final String path : List.of("/", "/anomaly.html", "/api/tenants", "/api/anomalies", "/metrics",
          "/static/isowatch.css")) {
        // When
        final HttpResponse<String> none = get(server, path, null);
        final HttpResponse<String> wrong = get(server, path, "Bearer not-" + TOKEN);
        final HttpResponse<String> prefix = get(server, path, "Bearer " + TOKEN.substring(0, 5));
        final HttpResponse<String> wrongQuery = get(server, path + "?token=wrong", null);
        // Then
        for (final HttpResponse<String> r : List.of(none, wrong, prefix, wrongQuery)) {
          assertEquals(401, r.statusCode(), path);
          assertEquals("Bearer realm=\"isowatch\"", r.headers().firstValue("WWW-Authenticate").orElse(""));
          assertFalse(r.body().contains(TOKEN), "the answer never echoes the token");
        }
      }
      assertEquals(200, get(server, "/health", null).statusCode());
    }
  }

  @Test
  void shouldServeWithTheBearerHeaderOrTheCookieTheTokenLinkSetsWhenTheTokenIsRight() throws Exception {
    // Given
    try (HealthAndMetricsServer server = server(new UiState(10), Optional.of(TOKEN))) {
      // When: the header ...
      final HttpResponse<String> api = get(server, "/api/tenants", "Bearer " + TOKEN);
      final HttpResponse<String> metrics = get(server, "/metrics", "bearer " + TOKEN);
      // ... and the page link with the token, then the cookie it sets.
      final HttpResponse<String> link = get(server, "/?type=G-single&token="
          + URLEncoder.encode(TOKEN, StandardCharsets.UTF_8), null);
      final String cookie = link.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
      final HttpResponse<String> page = http.send(request(server, "/").header("Cookie", cookie).build(),
          HttpResponse.BodyHandlers.ofString());
      final HttpResponse<String> badCookie = http.send(request(server, "/api/tenants")
          .header("Cookie", BearerAuth.COOKIE + "=" + TOKEN).build(), HttpResponse.BodyHandlers.ofString());

      // Then
      assertEquals(200, api.statusCode());
      assertEquals(200, metrics.statusCode());
      assertEquals(303, link.statusCode());
      assertEquals("/?type=G-single", link.headers().firstValue("Location").orElseThrow());
      assertTrue(link.headers().firstValue("Set-Cookie").orElseThrow().contains("HttpOnly"));
      assertFalse(cookie.contains(TOKEN), "the cookie holds a digest, not the token");
      assertEquals(200, page.statusCode());
      assertEquals(401, badCookie.statusCode());
    }
  }

  @Test
  void shouldMarkTheSessionCookieSecureWhenConfiguredOrForwardedOverTls() throws Exception {
    // Given
    try (HealthAndMetricsServer plain = guarded(new UiState(10), BearerAuth.of(TOKEN));
        HealthAndMetricsServer secure = guarded(new UiState(10), BearerAuth.of(TOKEN, true))) {
      // When
      final String overHttp = cookie(plain, request(plain, "/?token=" + TOKEN));
      final String forwarded = cookie(plain, request(plain, "/?token=" + TOKEN).header("X-Forwarded-Proto", "https"));
      final String rfc7239 = cookie(plain, request(plain, "/?token=" + TOKEN).header("Forwarded", "for=1.2.3.4;proto=https"));
      final String forwardedHttp = cookie(plain, request(plain, "/?token=" + TOKEN).header("X-Forwarded-Proto", "http"));
      final String configured = cookie(secure, request(secure, "/?token=" + TOKEN));
      // Then: always HttpOnly and SameSite=Strict; Secure where the browser reached it over TLS
      for (final String c : List.of(overHttp, forwarded, rfc7239, forwardedHttp, configured)) {
        assertTrue(c.contains("; HttpOnly"), c);
        assertTrue(c.contains("; SameSite=Strict"), c);
      }
      assertFalse(overHttp.contains("Secure"), overHttp);
      assertFalse(forwardedHttp.contains("Secure"), forwardedHttp);
      assertTrue(forwarded.endsWith("; Secure"), forwarded);
      assertTrue(rfc7239.endsWith("; Secure"), rfc7239);
      assertTrue(configured.endsWith("; Secure"), configured);
    }
  }

  private String cookie(final HealthAndMetricsServer server, final HttpRequest.Builder request) throws Exception {
    final HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(303, r.statusCode());
    return r.headers().firstValue("Set-Cookie").orElseThrow();
  }

  private static HealthAndMetricsServer server(final UiState state, final Optional<String> token) throws Exception {
    return HealthAndMetricsServer.start("127.0.0.1", 0, new CheckerMetrics(),
        () -> new HealthAndMetricsServer.Health(true, "RUNNING"), token.map(BearerAuth::of),
        Optional.of(new WebUi(state)));
  }

  private static HealthAndMetricsServer guarded(final UiState state, final BearerAuth auth) throws Exception {
    return HealthAndMetricsServer.start("127.0.0.1", 0, new CheckerMetrics(),
        () -> new HealthAndMetricsServer.Health(true, "RUNNING"), Optional.of(auth), Optional.of(new WebUi(state)));
  }

  private HttpRequest.Builder request(final HealthAndMetricsServer server, final String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).GET();
  }

  private HttpResponse<String> get(final HealthAndMetricsServer server, final String path, final String authorization)
      throws Exception {
    final HttpRequest.Builder b = request(server, path);
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode json(final HttpResponse<String> r) throws Exception {
    assertEquals(200, r.statusCode(), r.body());
    return JSON.readTree(r.body());
  }
}
