package io.isowatch.streams.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.apache.avro.Schema;

/** A minimal client of the registry's Confluent-compatible API ({@code /apis/ccompat/v7}) for tests. */
public final class CcompatClient {
  private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http = HttpClient.newHttpClient();
  private final URI base;

  /** A status code and the parsed JSON body. */
  public record Response(int status, JsonNode body) {}

  public CcompatClient(final URI registryUrl) {
    this.base = registryUrl.resolve("/apis/ccompat/v7/");
  }

  /** {@code POST /subjects/{subject}/versions}: registers a schema; the body has its {@code id}. */
  public Response register(final String subject, final Schema schema) throws IOException, InterruptedException {
    return send("POST", "subjects/" + subject + "/versions", Map.of("schema", schema.toString()));
  }

  /** {@code PUT /config/{subject}}: sets the subject's compatibility level. */
  public Response setCompatibility(final String subject, final String level)
      throws IOException, InterruptedException {
    return send("PUT", "config/" + subject, Map.of("compatibility", level));
  }

  /** {@code GET /config/{subject}}: the subject's compatibility level. */
  public Response compatibility(final String subject) throws IOException, InterruptedException {
    return send("GET", "config/" + subject, null);
  }

  /** {@code POST /compatibility/subjects/{subject}/versions/latest}: a dry-run check. */
  public Response checkAgainstLatest(final String subject, final Schema schema)
      throws IOException, InterruptedException {
    return send(
        "POST", "compatibility/subjects/" + subject + "/versions/latest", Map.of("schema", schema.toString()));
  }

  /** {@code GET /schemas/ids/{id}}: the schema with that id. */
  public Response schemaById(final int id) throws IOException, InterruptedException {
    return send("GET", "schemas/ids/" + id, null);
  }

  /** {@code GET /subjects/{subject}/versions}: the subject's version numbers. */
  public Response versions(final String subject) throws IOException, InterruptedException {
    return send("GET", "subjects/" + subject + "/versions", null);
  }

  private Response send(final String method, final String path, final Object body)
      throws IOException, InterruptedException {
    final HttpRequest.BodyPublisher publisher =
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body));
    final HttpRequest request =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", CONTENT_TYPE)
            .header("Accept", CONTENT_TYPE + ", application/json")
            .method(method, publisher)
            .build();
    final HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    final String text = response.body();
    return new Response(
        response.statusCode(), text == null || text.isBlank() ? JSON.nullNode() : JSON.readTree(text));
  }
}
