package io.isowatch.streams.http;

import com.sun.net.httpserver.Headers;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A request's line and headers, parsed strictly (RFC 9112, the subset a read-only endpoint needs):
 * origin-form targets only, no folded headers, no chunked bodies, one Content-Length.
 */
record RequestHead(String method, URI uri, String protocol, Headers headers, int contentLength) {
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  /** A request the server refuses, with the status to answer. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;

    Refused(final int status, final String message) {
      super(message);
      this.status = status;
    }
  }

  /**
   * Index just past the blank line ending the head in {@code buf[0, length)}, or -1 while it is
   * incomplete (CRLF line ends; bare LF is tolerated, as RFC 9112 allows).
   */
  static int end(final byte[] buf, final int length) {
    return end(buf, 0, length);
  }

  /**
   * As {@link #end(byte[], int)}, looking only at line ends from {@code from} on: a client sending its
   * head one byte at a time then costs linear time in all, not quadratic.
   */
  static int end(final byte[] buf, final int from, final int length) {
    for (int i = Math.max(0, from); i < length; i++) {
      if (buf[i] == '\n') {
        if (i + 1 < length && buf[i + 1] == '\n') {
          return i + 2;
        }
        if (i + 2 < length && buf[i + 1] == '\r' && buf[i + 2] == '\n') {
          return i + 3;
        }
      }
    }
    return -1;
  }

  /** Parses {@code buf[0, end)}, a complete head as found by {@link #end}. */
  static RequestHead parse(final byte[] buf, final int end) throws Refused {
    final String text = new String(buf, 0, end, StandardCharsets.ISO_8859_1);
    final List<String> lines = text.lines().toList();
    final String[] line = lines.isEmpty() ? new String[0] : lines.get(0).split(" ", -1);
    if (line.length != 3 || !TOKEN.matcher(line[0]).matches() || !line[1].startsWith("/")
        || !(line[2].equals("HTTP/1.1") || line[2].equals("HTTP/1.0"))) {
      throw new Refused(400, "malformed request line");
    }
    final URI uri;
    try {
      uri = new URI(line[1]);
    } catch (final URISyntaxException e) {
      throw new Refused(400, "malformed request target");
    }
    final Headers headers = new Headers();
    int count = 0;
    for (final String h : lines.subList(1, lines.size())) {
      if (h.isEmpty()) {
        break;
      }
      final int colon = h.indexOf(':');
      if (colon <= 0 || !TOKEN.matcher(h.substring(0, colon)).matches()) {
        throw new Refused(400, "malformed header");
      }
      if (++count > HttpLimits.MAX_HEADERS) {
        throw new Refused(431, "too many headers");
      }
      headers.add(h.substring(0, colon), h.substring(colon + 1).strip());
    }
    if (headers.containsKey("Transfer-Encoding")) {
      throw new Refused(501, "chunked request bodies are not accepted");
    }
    return new RequestHead(line[0], uri, line[2], headers, contentLength(headers));
  }

  private static int contentLength(final Headers headers) throws Refused {
    final List<String> values = headers.get("Content-Length");
    if (values == null) {
      return 0;
    }
    if (values.stream().distinct().count() != 1 || !values.get(0).matches("[0-9]{1,9}")) {
      throw new Refused(400, "malformed Content-Length");
    }
    final int n = Integer.parseInt(values.get(0));
    if (n > HttpLimits.MAX_BODY_BYTES) {
      throw new Refused(413, "request body too large");
    }
    return n;
  }
}
