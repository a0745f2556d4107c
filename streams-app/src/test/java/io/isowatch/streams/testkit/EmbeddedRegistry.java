package io.isowatch.streams.testkit;

import io.isowatch.localstack.LocalRegistry;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JUnit extension over {@link LocalRegistry}: the real Apicurio Registry 2.4.2 as a child process
 * on a free port, in-memory storage, its log in {@code target/registry-<port>.log}, started once
 * per test class (and built first when the runner jar is missing):
 *
 * <pre>{@code
 * @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();
 * }</pre>
 */
public final class EmbeddedRegistry implements BeforeAllCallback, AfterAllCallback {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedRegistry.class);

  private LocalRegistry registry;

  @Override
  public void beforeAll(final ExtensionContext context) throws Exception {
    registry = LocalRegistry.start(Path.of("target").toAbsolutePath(), notice -> LOG.info("{}", notice));
  }

  @Override
  public void afterAll(final ExtensionContext context) {
    if (registry != null) {
      registry.close();
      registry = null;
    }
  }

  /** Base URL of the running registry, e.g. {@code http://127.0.0.1:40123}. */
  public URI url() {
    return running().url();
  }

  /** Resident memory of the registry process in MiB, read from /proc (Linux only). */
  public long rssMib() throws IOException {
    return running().rssMib();
  }

  private LocalRegistry running() {
    if (registry == null) {
      throw new IllegalStateException("EmbeddedRegistry is not running (register it as a static extension)");
    }
    return registry;
  }
}
