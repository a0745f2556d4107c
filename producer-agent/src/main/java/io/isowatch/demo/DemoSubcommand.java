package io.isowatch.demo;

import io.isowatch.cli.Subcommand;

/** Contributes {@code isowatch demo} to the top-level command line (found by ServiceLoader). */
public final class DemoSubcommand implements Subcommand {
  @Override
  public Object command() {
    return new DemoCommand();
  }
}
