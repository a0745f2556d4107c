package io.isowatch.streams.http;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** A path prefix of a {@link BoundedHttpServer} with its handler and filters. */
final class BoundedContext extends HttpContext {
  private final String path;
  private final BoundedHttpServer server;
  private final boolean probe;
  private final List<Filter> filters = new CopyOnWriteArrayList<>();
  private final Map<String, Object> attributes = new ConcurrentHashMap<>();
  private volatile HttpHandler handler;

  BoundedContext(final String path, final HttpHandler handler, final BoundedHttpServer server, final boolean probe) {
    this.path = path;
    this.handler = handler;
    this.server = server;
    this.probe = probe;
  }

  /** Whether requests here run on the probe lane rather than the workers. */
  boolean probe() {
    return probe;
  }

  @Override
  public HttpHandler getHandler() {
    return handler;
  }

  @Override
  public void setHandler(final HttpHandler h) {
    this.handler = h;
  }

  @Override
  public String getPath() {
    return path;
  }

  @Override
  public HttpServer getServer() {
    return server;
  }

  @Override
  public Map<String, Object> getAttributes() {
    return attributes;
  }

  @Override
  public List<Filter> getFilters() {
    return filters;
  }

  /** Authentication is a {@link Filter} here (BearerAuth); an Authenticator would be ignored, so refuse it. */
  @Override
  public Authenticator setAuthenticator(final Authenticator auth) {
    throw new UnsupportedOperationException("add a Filter instead");
  }

  @Override
  public Authenticator getAuthenticator() {
    return null;
  }
}
