/** The {@code isowatch agent} command. */
package io.isowatch.agent.cli;
