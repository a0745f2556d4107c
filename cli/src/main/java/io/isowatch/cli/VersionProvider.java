package io.isowatch.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code isowatch --version}: the project version, filtered into a resource at build time. */
final class VersionProvider implements IVersionProvider {
  static final String RESOURCE = "/io/isowatch/cli/version.properties";

  @Override
  public String[] getVersion() throws IOException {
    final Properties p = new Properties();
    try (InputStream in = VersionProvider.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IOException("missing resource " + RESOURCE + ": the build did not run resource processing");
      }
      p.load(in);
    }
    return new String[] {
      "isowatch " + p.getProperty("version"),
      "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
    };
  }
}
