package io.isowatch.streams.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestHeadTest {
  @Test
  void shouldFindTheEndOfTheHeadWhenItArrivesOneByteAtATime() {
    for (final String head : new String[] {"GET / HTTP/1.1\r\nA: b\r\n\r\n", "GET / HTTP/1.1\nA: b\n\n",
        "GET / HTTP/1.1\r\nA: b\n\r\n"}) {
      // Given
      final byte[] bytes = (head + "body").getBytes(StandardCharsets.ISO_8859_1);
      // When: scanned incrementally, as the selector does
      int scanned = 0;
      int end = -1;
      for (int length = 1; length <= bytes.length && end < 0; length++) {
        end = RequestHead.end(bytes, scanned - 2, length);
        scanned = length;
      }
      // Then: the same end as one scan of the whole
      assertEquals(head.length(), end, head);
      assertEquals(head.length(), RequestHead.end(bytes, bytes.length), head);
    }
  }

  @Test
  void shouldParseTheHeadersCaseInsensitivelyWhenTheHeadIsValid() throws Exception {
    // Given
    final byte[] head = "GET /api/x?a=1 HTTP/1.1\r\nauthorization: Bearer t\r\nContent-Length: 3\r\n\r\n"
        .getBytes(StandardCharsets.ISO_8859_1);
    // When
    final RequestHead h = RequestHead.parse(head, head.length);
    // Then
    assertEquals("GET", h.method());
    assertEquals("/api/x", h.uri().getRawPath());
    assertEquals("a=1", h.uri().getRawQuery());
    assertEquals("Bearer t", h.headers().getFirst("Authorization"));
    assertEquals(3, h.contentLength());
  }

  @Test
  void shouldRefuseConflictingContentLengthsWhenASmugglerSendsTwo() {
    // Given
    final byte[] head = "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n"
        .getBytes(StandardCharsets.ISO_8859_1);
    // When
    final RequestHead.Refused e = assertThrows(RequestHead.Refused.class, () -> RequestHead.parse(head, head.length));
    // Then
    assertEquals(400, e.status);
  }
}
