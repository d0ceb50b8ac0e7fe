package io.shardline.runtime.cli;

import io.shardline.runtime.config.Version;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point behind {@code bin/shardline}: the operator's commands, one picocli subcommand each
 * ({@code bin/shardline redis-acl ...}; {@code groups}, {@code offsets}, {@code listeners}, {@code loggers},
 * {@code dlq}, {@code streams} talk to a
 * worker's REST API). Without a subcommand it prints the usage. Exit codes are the subcommand's ({@link ExitCodes});
 * 2 for a usage error.
 */
@Command(name = "shardline",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Shardline operator commands.",
        footer = {"%nCommands that talk to a worker take [--url URL] [--token TOKEN | --token-file FILE] "
                + "[--timeout SECONDS] [--json]:",
                "  groups list | describe GROUP | delete GROUP",
                "  offsets show LISTENER | reset LISTENER --to POSITION [--shard STREAM:N]... [--execute]",
                "  listeners list | status L | members L | pause L | resume L | stop L | restart L [--include-members] "
                        + "[--only-failed] [--member ID]",
                "  loggers [NAME LEVEL] [--cluster]",
                "  dlq list L [--limit N] | show L ID | redrive L (--ids ID,... | --all) [--to-stream STREAM] [--execute]",
                "  streams list | describe STREAM | create STREAM --shards N | reshard STREAM --shards M "
                        + "| rollback STREAM",
                "Other:",
                "  redis-acl --stream NAME... [--cluster NAME] [--dead-letter KEY] [--user NAME] [--xackdel]",
                ExitCodes.FOOTER,
                "Each command's options: bin/shardline COMMAND [SUBCOMMAND] --help; all of them: docs/cli.md."},
        subcommands = {RedisAclCommand.class, GroupsCommand.class, OffsetsCommand.class, ListenersCommand.class,
                LoggersCommand.class, DlqCommand.class, StreamsCommand.class, CommandLine.HelpCommand.class})
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
        // No @file expansion: '@1764547200000' is a position (offsets reset --to), not an argument file.
        return new CommandLine(new Shardline()).setExpandAtFiles(false);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
