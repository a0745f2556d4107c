package io.isowatch.streams.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One request and its answer on a blocking channel. Every answer ends the connection ({@code
 * Connection: close}): no keep-alive, so an idle client never holds anything between requests.
 */
final class BoundedExchange extends HttpExchange {
  private final SocketChannel channel;
  private final RequestHead head;
  private final BoundedContext context;
  private final Runnable onClose;
  private final Headers responseHeaders = new Headers();
  private final Map<String, Object> attributes = new ConcurrentHashMap<>();
  private final OutputStream raw;
  private InputStream in;
  private OutputStream out;
  private OutputStream body;
  private int status = -1;
  private boolean closed;

  BoundedExchange(final SocketChannel channel, final RequestHead head, final byte[] requestBody,
      final BoundedContext context, final Runnable onClose) {
    this.channel = channel;
    this.head = head;
    this.context = context;
    this.onClose = onClose;
    this.raw = new BufferedOutputStream(Channels.newOutputStream(channel), 8192);
    this.in = new ByteArrayInputStream(requestBody);
    this.out = new ResponseBody();
  }

  @Override
  public Headers getRequestHeaders() {
    return head.headers();
  }

  @Override
  public Headers getResponseHeaders() {
    return responseHeaders;
  }

  @Override
  public URI getRequestURI() {
    return head.uri();
  }

  @Override
  public String getRequestMethod() {
    return head.method();
  }

  @Override
  public HttpContext getHttpContext() {
    return context;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (status != -1) {
        raw.flush();
      }
    } catch (final IOException e) {
      // The client went away or the response deadline closed the channel: nothing left to tell it.
    } finally {
      onClose.run();
    }
  }

  @Override
  public InputStream getRequestBody() {
    return in;
  }

  @Override
  public OutputStream getResponseBody() {
    return out;
  }

  @Override
  public synchronized void sendResponseHeaders(final int rCode, final long responseLength) throws IOException {
    if (status != -1) {
      throw new IOException("response headers already sent");
    }
    status = rCode;
    final boolean noBody = responseLength == -1 || "HEAD".equals(head.method()) || rCode == 204 || rCode == 304;
    responseHeaders.set("Connection", "close");
    responseHeaders.set("Date", DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC)));
    if (responseLength > 0) {
      responseHeaders.set("Content-Length", Long.toString(responseLength));
    } else if (responseLength == -1 && rCode != 204 && rCode != 304) {
      responseHeaders.set("Content-Length", "0");
    }
    final StringBuilder h = new StringBuilder("HTTP/1.1 ").append(rCode).append(' ').append(Reasons.of(rCode))
        .append("\r\n");
    for (final Map.Entry<String, List<String>> e : responseHeaders.entrySet()) {
      for (final String v : e.getValue()) {
        // A handler must never be able to split the answer (header injection).
        if (v.indexOf('\r') >= 0 || v.indexOf('\n') >= 0) {
          throw new IOException("response header " + e.getKey() + " holds a line break");
        }
        h.append(e.getKey()).append(": ").append(v).append("\r\n");
      }
    }
    raw.write(h.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
    // Length 0 means "unknown": the body ends with the connection, as Connection: close allows.
    body = noBody ? OutputStream.nullOutputStream() : raw;
    if (noBody) {
      raw.flush();
    }
  }

  @Override
  public InetSocketAddress getRemoteAddress() {
    try {
      return (InetSocketAddress) channel.getRemoteAddress();
    } catch (final IOException e) {
      return null;
    }
  }

  @Override
  public int getResponseCode() {
    return status;
  }

  @Override
  public InetSocketAddress getLocalAddress() {
    try {
      return (InetSocketAddress) channel.getLocalAddress();
    } catch (final IOException e) {
      return null;
    }
  }

  @Override
  public String getProtocol() {
    return head.protocol();
  }

  @Override
  public Object getAttribute(final String name) {
    return attributes.get(name);
  }

  @Override
  public void setAttribute(final String name, final Object value) {
    if (value == null) {
      attributes.remove(name);
    } else {
      attributes.put(name, value);
    }
  }

  @Override
  public void setStreams(final InputStream i, final OutputStream o) {
    if (i != null) {
      in = i;
    }
    if (o != null) {
      out = o;
    }
  }

  @Override
  public HttpPrincipal getPrincipal() {
    return null;
  }

  /** Whether the answer has been started (a status sent). */
  synchronized boolean started() {
    return status != -1;
  }

  /** The body stream: usable once the headers are sent; closing it ends the exchange. */
  private final class ResponseBody extends OutputStream {
    @Override
    public void write(final int b) throws IOException {
      target().write(b);
    }

    @Override
    public void write(final byte[] b, final int off, final int len) throws IOException {
      target().write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      target().flush();
    }

    @Override
    public void close() {
      BoundedExchange.this.close();
    }

    private OutputStream target() throws IOException {
      synchronized (BoundedExchange.this) {
        if (body == null) {
          throw new IOException("sendResponseHeaders must come before the body");
        }
        return body;
      }
    }
  }
}
