package io.isowatch.cli;

/**
 * A top-level {@code isowatch} subcommand contributed by another module (e.g. {@code agent} from
 * producer-agent), discovered with {@link java.util.ServiceLoader}, so that streams-app never
 * depends on the modules that extend its command line.
 *
 * <p>Register an implementation in {@code META-INF/services/io.isowatch.cli.Subcommand}.
 */
public interface Subcommand {
  /** A picocli command object (annotated with {@code @Command}), usually a {@code Callable<Integer>}. */
  Object command();
}
