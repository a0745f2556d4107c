package io.isowatch.localstack;

/**
 * The JVM shutdown hook of a local service: it stops the service at JVM exit unless the owner
 * stopped it first and {@linkplain #cancel() cancelled} the hook.
 */
final class StopAtExit {
  private final Thread hook;

  StopAtExit(final String name, final Runnable stop) {
    this.hook = new Thread(stop, name);
  }

  void register() {
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** Removes the hook; a no-op while the JVM exits (the hook runs then, or has run). */
  void cancel() {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (final IllegalStateException shuttingDown) {
      // The JVM is exiting: the hook cannot be removed then, nor need be (it stops the service).
    }
  }
}
