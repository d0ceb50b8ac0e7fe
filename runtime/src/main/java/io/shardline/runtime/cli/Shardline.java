package io.shardline.runtime.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point behind {@code bin/shardline}: the operator's commands, one picocli subcommand each
 * ({@code bin/shardline redis-acl ...}). Without a subcommand it prints the usage. Exit codes are the
 * subcommand's; 2 for a usage error.
 */
@Command(name = "shardline",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Shardline operator commands.",
        subcommands = {RedisAclCommand.class, CommandLine.HelpCommand.class})
public final class Shardline implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: give one of "
                + String.join(", ", spec.subcommands().keySet()));
    }

    /** The command line with its subcommands (tests run it in-process). */
    public static CommandLine commandLine() {
        return new CommandLine(new Shardline());
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
