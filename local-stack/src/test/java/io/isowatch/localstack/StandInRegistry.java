package io.isowatch.localstack;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * A stand-in for the registry's runner jar, started by {@link LocalRegistryPortTest} as a child
 * process the way {@link LocalRegistry} starts the real one: it binds its port as Quarkus does and,
 * when the port is taken, prints Quarkus's line and exits 1 (as the registry did in CI: "Port 38449
 * seems to be in use by another process"); otherwise it answers {@code /health/ready} with 200 until
 * killed. With {@code crash} as second argument it exits 1 at once with another error.
 */
public final class StandInRegistry {
  private StandInRegistry() {}

  public static void main(final String[] args) throws IOException {
    final int port = Integer.parseInt(args[0]);
    if (args.length > 1 && "crash".equals(args[1])) {
      System.out.println("ERROR [io.qua.run.Application] Failed to start application: a configuration error");
      System.exit(1);
    }
    final HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    } catch (final BindException e) {
      System.out.println("ERROR [io.qua.run.Application] Port " + port + " seems to be in use by another process. "
          + "Quarkus may already be running or the port is used by another application.");
      System.exit(1);
      return;
    }
    server.createContext("/health/ready", exchange -> {
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    server.start();
    System.out.println("INFO [io.quarkus] stand-in registry started. Listening on: http://127.0.0.1:" + port);
  }
}
