package io.isowatch.streams.http;

import java.util.Map;

/** Reason phrases of the statuses the endpoint sends (clients ignore them; people read them). */
final class Reasons {
  private static final Map<Integer, String> PHRASES = Map.ofEntries(
      Map.entry(200, "OK"), Map.entry(204, "No Content"), Map.entry(301, "Moved Permanently"),
      Map.entry(302, "Found"), Map.entry(303, "See Other"), Map.entry(304, "Not Modified"),
      Map.entry(400, "Bad Request"), Map.entry(401, "Unauthorized"), Map.entry(403, "Forbidden"),
      Map.entry(404, "Not Found"), Map.entry(405, "Method Not Allowed"), Map.entry(408, "Request Timeout"),
      Map.entry(413, "Content Too Large"), Map.entry(431, "Request Header Fields Too Large"),
      Map.entry(500, "Internal Server Error"), Map.entry(501, "Not Implemented"),
      Map.entry(503, "Service Unavailable"));

  private Reasons() {}

  static String of(final int status) {
    return PHRASES.getOrDefault(status, "Status");
  }
}
