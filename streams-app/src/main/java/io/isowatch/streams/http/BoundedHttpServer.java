package io.isowatch.streams.http;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An HTTP/1.1 server behind the JDK's {@link HttpServer} API (so handlers and filters are the
 * usual {@link HttpHandler} and {@link Filter}) that slow or stuck clients cannot starve.
 *
 * <p>Why not the JDK's own server: it reads a request's headers on a worker thread, blocking, with no
 * deadline unless JVM-wide system properties say otherwise; four clients that send one byte and stop
 * hold its four workers and {@code /health} is never answered. Here:
 *
 * <ul>
 *   <li>one selector thread reads every request (line, headers, small body) without blocking; a
 *       connection holds no thread until its request is complete;
 *   <li>a request not complete within {@link HttpLimits#requestTimeout()} of its accept is answered
 *       408 and closed; heads over {@link HttpLimits#MAX_HEAD_BYTES} get 431;
 *   <li>past {@link HttpLimits#maxConnections()} incomplete requests, each new connection evicts the
 *       oldest incomplete one: a flood of slow clients cannot lock a quick one out;
 *   <li>complete requests run on a bounded pool of workers, those of probe contexts ({@link
 *       #createProbeContext}) on a lane of their own; a full pool answers 503 at once;
 *   <li>an answer not delivered within {@link HttpLimits#responseTimeout()} has its connection closed,
 *       which frees a worker blocked writing to a client that does not read;
 *   <li>every answer closes the connection (no keep-alive, so nothing is held between requests).
 * </ul>
 */
public final class BoundedHttpServer extends HttpServer {
  private static final Logger LOG = LoggerFactory.getLogger(BoundedHttpServer.class);
  private static final int QUEUE = 64;
  private static final int PROBE_THREADS = 2;
  private static final long ACCEPT_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final HttpLimits limits;
  private final ServerSocketChannel listener;
  private final Selector selector;
  private final List<BoundedContext> contexts = new CopyOnWriteArrayList<>();
  /** Connections still sending their request, oldest (so earliest deadline) first; selector thread only. */
  private final LinkedHashSet<Pending> pending = new LinkedHashSet<>();
  private final ThreadPoolExecutor workers;
  private final ThreadPoolExecutor probes;
  private final ScheduledThreadPoolExecutor deadlines;
  private final AtomicInteger evicted = new AtomicInteger();
  private final AtomicInteger timedOut = new AtomicInteger();
  /** When accepting resumes after a failure (System.nanoTime), 0 while accepting; selector thread only. */
  private long acceptPausedUntil;
  private volatile Thread selectorThread;
  private volatile boolean running;

  private BoundedHttpServer(final InetSocketAddress address, final HttpLimits limits) throws IOException {
    this.limits = limits;
    this.selector = Selector.open();
    this.listener = ServerSocketChannel.open();
    try {
      listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      listener.bind(address, 128);
      listener.configureBlocking(false);
      listener.register(selector, SelectionKey.OP_ACCEPT);
    } catch (final IOException e) {
      listener.close();
      selector.close();
      throw e;
    }
    this.workers = pool("isowatch-http", limits.workers());
    this.probes = pool("isowatch-http-probe", PROBE_THREADS);
    this.deadlines = new ScheduledThreadPoolExecutor(1, daemon("isowatch-http-deadline"));
    deadlines.setRemoveOnCancelPolicy(true);
  }

  /** Binds (port 0 picks a free one); {@link #start} serves. */
  public static BoundedHttpServer bind(final InetSocketAddress address, final HttpLimits limits) throws IOException {
    return new BoundedHttpServer(address, limits);
  }

  /** A context whose requests run on the probe lane, never queued behind ordinary ones ({@code /health}). */
  public HttpContext createProbeContext(final String path, final HttpHandler handler) {
    return add(new BoundedContext(checkPath(path), handler, this, true));
  }

  @Override
  public HttpContext createContext(final String path, final HttpHandler handler) {
    return add(new BoundedContext(checkPath(path), handler, this, false));
  }

  @Override
  public HttpContext createContext(final String path) {
    return createContext(path, exchange -> {
      exchange.sendResponseHeaders(404, -1);
      exchange.close();
    });
  }

  @Override
  public void removeContext(final String path) {
    if (!contexts.removeIf(c -> c.getPath().equals(path))) {
      throw new IllegalArgumentException("no context " + path);
    }
  }

  @Override
  public void removeContext(final HttpContext context) {
    contexts.remove(context);
  }

  @Override
  public void bind(final InetSocketAddress addr, final int backlog) {
    throw new UnsupportedOperationException("bound by BoundedHttpServer.bind");
  }

  @Override
  public synchronized void start() {
    if (selectorThread != null) {
      throw new IllegalStateException("already started");
    }
    running = true;
    selectorThread = daemon("isowatch-http-selector").newThread(this::loop);
    selectorThread.start();
  }

  /** The workers are this server's own, sized by {@link HttpLimits#workers()}. */
  @Override
  public void setExecutor(final Executor executor) {
    throw new UnsupportedOperationException("the workers are bounded by HttpLimits");
  }

  @Override
  public Executor getExecutor() {
    return workers;
  }

  /** Stops accepting, closes every connection and the threads; {@code delay} is not waited for. */
  @Override
  public void stop(final int delay) {
    running = false;
    selector.wakeup();
    final Thread t = selectorThread;
    if (t != null) {
      try {
        t.join(TimeUnit.SECONDS.toMillis(5));
      } catch (final InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    closeQuietly(listener);
    pending.forEach(p -> closeQuietly(p.channel));
    pending.clear();
    try {
      selector.close();
    } catch (final IOException e) {
      LOG.debug("Closing the HTTP selector failed", e);
    }
    workers.shutdownNow();
    probes.shutdownNow();
    deadlines.shutdownNow();
  }

  @Override
  public InetSocketAddress getAddress() {
    try {
      return (InetSocketAddress) listener.getLocalAddress();
    } catch (final IOException e) {
      throw new IllegalStateException("the listener is closed", e);
    }
  }

  /** Connections evicted by newer ones while {@link HttpLimits#maxConnections()} were pending. */
  public int evicted() {
    return evicted.get();
  }

  /** Connections closed because their request was not complete within the request timeout. */
  public int timedOut() {
    return timedOut.get();
  }

  private void loop() {
    while (running) {
      try {
        selector.select(100);
        final Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          final SelectionKey key = keys.next();
          keys.remove();
          if (!key.isValid()) {
            continue;
          }
          if (key.isAcceptable()) {
            accept(key);
          } else if (key.isReadable()) {
            read(key, (Pending) key.attachment());
          }
        }
        expire(System.nanoTime());
        resumeAccepting(System.nanoTime());
      } catch (final IOException | RuntimeException e) {
        // One bad connection or a transient accept failure (too many open files) must not end the
        // endpoint; the loop goes on and the next select sees what is left.
        LOG.warn("HTTP endpoint: selector loop error, continuing error=[{}]", e.toString());
      }
    }
  }

  private void accept(final SelectionKey listenerKey) throws IOException {
    SocketChannel c;
    while ((c = acceptOrPause(listenerKey)) != null) {
      c.configureBlocking(false);
      c.setOption(StandardSocketOptions.TCP_NODELAY, true);
      if (pending.size() >= limits.maxConnections()) {
        final Pending oldest = pending.iterator().next();
        pending.remove(oldest);
        oldest.key.cancel();
        closeQuietly(oldest.channel);
        evicted.incrementAndGet();
        LOG.debug("HTTP endpoint: evicted the oldest incomplete request pending=[{}]", pending.size());
      }
      final Pending p = new Pending(c, System.nanoTime() + limits.requestTimeout().toNanos());
      p.key = c.register(selector, SelectionKey.OP_READ, p);
      pending.add(p);
    }
  }

  /**
   * The next connection, or null. When accepting fails (out of file descriptors) the listener stays
   * ready, so the loop would spin: accepting pauses for {@link #ACCEPT_PAUSE_NANOS} instead.
   */
  private SocketChannel acceptOrPause(final SelectionKey listenerKey) {
    try {
      return listener.accept();
    } catch (final IOException e) {
      listenerKey.interestOps(0);
      acceptPausedUntil = System.nanoTime() + ACCEPT_PAUSE_NANOS;
      LOG.warn("HTTP endpoint: cannot accept connections, pausing pauseMs=[{}] error=[{}]",
          TimeUnit.NANOSECONDS.toMillis(ACCEPT_PAUSE_NANOS), e.toString());
      return null;
    }
  }

  private void resumeAccepting(final long now) {
    if (acceptPausedUntil != 0 && now - acceptPausedUntil >= 0) {
      acceptPausedUntil = 0;
      listener.keyFor(selector).interestOps(SelectionKey.OP_ACCEPT);
    }
  }

  private void read(final SelectionKey key, final Pending p) {
    try {
      final int n = p.channel.read(p.buffer);
      if (n < 0) {
        drop(p);
        return;
      }
      if (p.head == null) {
        // A blank line may start up to 2 bytes before the new data (CR LF CR LF, or LF CR LF).
        final int end = RequestHead.end(p.buffer.array(), p.scanned - 2, p.buffer.position());
        p.scanned = p.buffer.position();
        if (end < 0) {
          if (!p.buffer.hasRemaining()) {
            refuse(p, 431);
          }
          return;
        }
        p.head = RequestHead.parse(p.buffer.array(), end);
        // What followed the head is the start of the body.
        final byte[] rest = Arrays.copyOfRange(p.buffer.array(), end, p.buffer.position());
        p.buffer = ByteBuffer.allocate(p.head.contentLength());
        p.buffer.put(rest, 0, Math.min(rest.length, p.head.contentLength()));
      }
      if (!p.buffer.hasRemaining()) {
        key.cancel();
        pending.remove(p);
        dispatch(p);
      }
    } catch (final RequestHead.Refused e) {
      refuse(p, e.status);
    } catch (final IOException e) {
      drop(p);
    } catch (final RuntimeException e) {
      // Whatever one request does to the parser costs that connection only.
      LOG.debug("HTTP endpoint: request dropped error=[{}]", e.toString());
      drop(p);
    }
  }

  private void dispatch(final Pending p) throws IOException {
    final String path = p.head.uri().getRawPath() == null ? "/" : p.head.uri().getRawPath();
    final Optional<BoundedContext> context = contexts.stream().filter(c -> path.startsWith(c.getPath()))
        .max(Comparator.comparingInt(c -> c.getPath().length()));
    if (context.isEmpty()) {
      answerNow(p.channel, 404);
      return;
    }
    final ScheduledFuture<?>[] deadline = new ScheduledFuture<?>[1];
    final BoundedExchange exchange = new BoundedExchange(p.channel, p.head, p.buffer.array(), context.get(), () -> {
      deadline[0].cancel(false);
      closeQuietly(p.channel);
    });
    deadline[0] = deadlines.schedule(() -> closeQuietly(p.channel), limits.responseTimeout().toMillis(),
        TimeUnit.MILLISECONDS);
    // A cancelled key is invalid at once, so the channel may turn blocking before the next select.
    p.channel.configureBlocking(true);
    try {
      (context.get().probe() ? probes : workers).execute(() -> handle(exchange, context.get()));
    } catch (final RejectedExecutionException e) {
      deadline[0].cancel(false);
      answerNow(p.channel, 503);
    }
  }

  private static void handle(final BoundedExchange exchange, final BoundedContext context) {
    try {
      new Filter.Chain(context.getFilters(), context.getHandler()).doFilter(exchange);
    } catch (final IOException e) {
      // The client went away or the response deadline closed the connection.
      LOG.debug("HTTP endpoint: answer not delivered path=[{}] error=[{}]", context.getPath(), e.toString());
    } catch (final RuntimeException e) {
      LOG.error("HTTP endpoint: handler failed path=[{}]", context.getPath(), e);
      if (!exchange.started()) {
        try {
          exchange.sendResponseHeaders(500, -1);
        } catch (final IOException ignored) {
          LOG.debug("HTTP endpoint: could not answer 500 path=[{}]", context.getPath());
        }
      }
    } finally {
      exchange.close();
    }
  }

  private void expire(final long now) {
    final Iterator<Pending> it = pending.iterator();
    while (it.hasNext()) {
      final Pending p = it.next();
      if (p.deadlineNanos - now > 0) {
        return; // accept order is deadline order
      }
      it.remove();
      p.key.cancel();
      timedOut.incrementAndGet();
      answerNow(p.channel, 408);
    }
  }

  private void refuse(final Pending p, final int status) {
    pending.remove(p);
    p.key.cancel();
    answerNow(p.channel, status);
  }

  private void drop(final Pending p) {
    pending.remove(p);
    p.key.cancel();
    closeQuietly(p.channel);
  }

  /** A short answer written without blocking (it fits any socket buffer), then the connection closed. */
  private static void answerNow(final SocketChannel channel, final int status) {
    try {
      channel.write(ByteBuffer.wrap(("HTTP/1.1 " + status + " " + Reasons.of(status)
          + "\r\nConnection: close\r\nContent-Length: 0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1)));
    } catch (final IOException e) {
      LOG.debug("HTTP endpoint: could not answer status=[{}]", status);
    } finally {
      closeQuietly(channel);
    }
  }

  private HttpContext add(final BoundedContext context) {
    if (contexts.stream().anyMatch(c -> c.getPath().equals(context.getPath()))) {
      throw new IllegalArgumentException("context " + context.getPath() + " already exists");
    }
    contexts.add(context);
    return context;
  }

  private static String checkPath(final String path) {
    if (path == null || !path.startsWith("/")) {
      throw new IllegalArgumentException("a context path starts with /");
    }
    return path;
  }

  private static ThreadPoolExecutor pool(final String name, final int threads) {
    return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
        daemon(name), new ThreadPoolExecutor.AbortPolicy());
  }

  private static java.util.concurrent.ThreadFactory daemon(final String name) {
    return r -> {
      final Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  private static void closeQuietly(final java.nio.channels.Channel c) {
    try {
      c.close();
    } catch (final IOException e) {
      LOG.debug("HTTP endpoint: close failed error=[{}]", e.toString());
    }
  }

  /** A connection still sending its request. */
  private static final class Pending {
    final SocketChannel channel;
    final long deadlineNanos;
    ByteBuffer buffer = ByteBuffer.allocate(HttpLimits.MAX_HEAD_BYTES);
    RequestHead head;
    SelectionKey key;
    int scanned;

    Pending(final SocketChannel channel, final long deadlineNanos) {
      this.channel = channel;
      this.deadlineNanos = deadlineNanos;
    }
  }
}
