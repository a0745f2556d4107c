package io.isowatch.streams.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder on a fixed local port that a test opens and closes: closed, connections are
 * refused, as by a server that is down; open, they are forwarded to a target port. Lets a test
 * decide the exact moment a restarted server becomes reachable (after it has been prepared), which
 * a server restarted on the same port cannot.
 */
public final class TcpGate implements AutoCloseable {
  private final int port;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private ServerSocket server;

  public TcpGate(final int port) {
    this.port = port;
  }

  /** The gate's port. */
  public int port() {
    return port;
  }

  /** Starts forwarding new connections on the gate's port to {@code targetPort} on the loopback. */
  public synchronized void open(final int targetPort) throws IOException {
    if (server != null) {
      throw new IllegalStateException("gate already open");
    }
    final ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    server = s;
    final Thread acceptor = new Thread(() -> accept(s, targetPort), "tcp-gate-" + port);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Refuses new connections and cuts the open ones. */
  public synchronized void shut() throws IOException {
    if (server != null) {
      server.close();
      server = null;
    }
    for (final Socket socket : sockets) {
      socket.close();
    }
    sockets.clear();
  }

  @Override
  public void close() throws IOException {
    shut();
  }

  private void accept(final ServerSocket s, final int targetPort) {
    while (!s.isClosed()) {
      try {
        final Socket client = s.accept();
        final Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        sockets.add(client);
        sockets.add(target);
        pump(client, target);
        pump(target, client);
      } catch (final IOException closed) {
        // The gate was shut (or the target refused): this connection ends here.
      }
    }
  }

  private static void pump(final Socket from, final Socket to) {
    final Thread t = new Thread(() -> {
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        in.transferTo(out);
      } catch (final IOException cut) {
        // One side closed: close both below.
      } finally {
        try {
          from.close();
          to.close();
        } catch (final IOException ignored) {
          // Already closed.
        }
      }
    }, "tcp-gate-pump");
    t.setDaemon(true);
    t.start();
  }
}
