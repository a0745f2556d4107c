package io.isowatch.agent.target.jdbc;

import java.util.regex.Pattern;

/** Helpers for JDBC URLs. */
final class JdbcUrls {
  private static final Pattern PASSWORD = Pattern.compile("(?i)(password=)[^&;]*");
  private static final Pattern USER_INFO = Pattern.compile("//([^/@:]+):[^/@]*@");

  private JdbcUrls() {}

  /** The URL with any password replaced by {@code ***}, for logs and messages. */
  static String redact(final String url) {
    return USER_INFO.matcher(PASSWORD.matcher(url).replaceAll("$1***")).replaceAll("//$1:***@");
  }
}
