package io.isowatch.streams.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/** A raw TCP client for what HttpClient will not do: stop mid-request, trickle, never read. */
final class RawClient implements AutoCloseable {
  private final Socket socket;

  private RawClient(final Socket socket) {
    this.socket = socket;
  }

  static RawClient connect(final int port) throws IOException {
    return connect(port, -1);
  }

  /** @param receiveBuffer a small receive buffer makes a client that never reads block the server sooner */
  static RawClient connect(final int port, final int receiveBuffer) throws IOException {
    final Socket s = new Socket();
    if (receiveBuffer > 0) {
      s.setReceiveBufferSize(receiveBuffer);
    }
    s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
    s.setSoTimeout(10_000);
    return new RawClient(s);
  }

  RawClient send(final String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
    socket.getOutputStream().flush();
    return this;
  }

  /**
   * Everything the server sends until it closes the connection (at most 10 s of silence); a reset
   * after some bytes counts as the end.
   */
  String readAll() throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final InputStream in = socket.getInputStream();
    final byte[] buf = new byte[8192];
    try {
      int n;
      while ((n = in.read(buf)) >= 0) {
        out.write(buf, 0, n);
      }
    } catch (final SocketException e) {
      if (out.size() == 0) {
        throw e;
      }
    }
    return out.toString(StandardCharsets.ISO_8859_1);
  }

  /** Whether the server has closed the connection: end of stream or reset. */
  boolean closedByServer() throws IOException {
    try {
      return socket.getInputStream().read() < 0;
    } catch (final SocketException e) {
      return true;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
