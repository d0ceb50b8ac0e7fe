package io.shardline.runtime.cli;

import java.util.Map;
import picocli.CommandLine;

/**
 * Renders docs/cli.md, the reference of {@code bin/shardline}, from the picocli definitions: the exit codes, then
 * each command's usage help (depth first, in the order the commands are registered), then {@code bin/produce}'s. CliDocsTest fails when the
 * committed file differs. Stateless.
 */
public final class CliDocs {

    private CliDocs() {
    }

    /** The document. */
    public static String render() {
        StringBuilder b = new StringBuilder();
        b.append("# bin/shardline command reference\n\n")
                .append("<!-- Generated from the picocli definitions in runtime/src/main/java/io/shardline/runtime/cli/ "
                        + "by CliDocs; do not edit. Regenerate: mvn -B -ntp -q test -pl runtime -am -Dtest=CliDocsTest "
                        + "-Dsurefire.failIfNoSpecifiedTests=false -Dshardline.docs.write=true -->\n\n")
                .append("`bin/shardline` is one command with subcommands. The commands that talk to a worker (`groups`, "
                        + "`offsets`, `listeners`, `loggers`) take `--url` (any worker's REST address), the token from "
                        + "`--token`, else `--token-file`, else the `SHARDLINE_TOKEN` environment variable, and `--json` "
                        + "(the worker's JSON answer instead of a table, for scripts). Every write is sent with "
                        + "`Content-Type: application/json`.\n\n")
                .append("## Exit codes\n\n")
                .append("| code | meaning |\n| --- | --- |\n")
                .append("| 0 | done |\n")
                .append("| 1 | the worker refused the request for another reason (400, 5xx; the message says why) |\n")
                .append("| 2 | bad command line (unknown option, missing argument) |\n")
                .append("| 3 | the worker could not be reached (`--url`) |\n")
                .append("| 4 | unknown listener, group or shard (404) |\n")
                .append("| 5 | conflicts with the current state (409): e.g. `offsets reset --execute` while the listener "
                        + "runs, `groups delete` of a group in use |\n")
                .append("| 6 | not authorized (401, 403): check `--token`, `--token-file` or `SHARDLINE_TOKEN` |\n");
        append(b, Shardline.commandLine());
        b.append("\n## bin/produce\n\n`bin/produce` writes test records to a stream (load tests, demos) with the producer "
                + "library: the shard count and routing epoch come from the stream's topology; `--shards` only creates a "
                + "stream that has none. Exit codes: 0 done, 2 bad option (also: no topology and no `--shards`, or "
                + "`--shards` disagreeing with the topology), 1 Redis failed.\n\n```text\n")
                .append(new CommandLine(new Produce()).getUsageMessage(CommandLine.Help.Ansi.OFF).stripTrailing())
                .append("\n```\n");
        return b.toString();
    }

    private static void append(StringBuilder b, CommandLine command) {
        String name = command.getCommandSpec().qualifiedName(" ");
        b.append("\n## ").append(name).append("\n\n```text\n")
                .append(command.getUsageMessage(CommandLine.Help.Ansi.OFF).stripTrailing()).append("\n```\n");
        for (Map.Entry<String, CommandLine> sub : command.getSubcommands().entrySet()) {
            if (!sub.getKey().equals("help") && sub.getValue().getCommandName().equals(sub.getKey())) {
                append(b, sub.getValue());
            }
        }
    }
}
