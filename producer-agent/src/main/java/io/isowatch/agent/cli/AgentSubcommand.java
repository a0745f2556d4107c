package io.isowatch.agent.cli;

import io.isowatch.cli.Subcommand;

/** Contributes {@code isowatch agent} to the top-level command line (found by ServiceLoader). */
public final class AgentSubcommand implements Subcommand {
  @Override
  public Object command() {
    return new AgentCommand();
  }
}
