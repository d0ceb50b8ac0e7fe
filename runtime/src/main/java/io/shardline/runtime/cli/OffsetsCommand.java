package io.shardline.runtime.cli;

import io.shardline.runtime.config.Version;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/shardline offsets show LISTENER | reset LISTENER --to POSITION [--shard STREAM:N]... [--execute]}: a
 * listener's group positions ({@code GET /listeners/{name}/offsets}) and moving them ({@code PATCH}, as
 * {@code kafka-consumer-groups --reset-offsets}: a dry run printing before and after unless {@code --execute}).
 */
@Command(name = "offsets",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Shows and resets a listener's group positions.",
        footer = ExitCodes.FOOTER,
        subcommands = CommandLine.HelpCommand.class)
public final class OffsetsCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: give one of show, reset");
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Per shard: last delivered id, lag, pending count, oldest pending entry "
            + "and its age.", footer = ExitCodes.FOOTER)
    int show(@Mixin RestOptions rest, @Parameters(paramLabel = "LISTENER", description = "The listener.") String name) {
        return AdminRun.run(spec.subcommands().get("show").getCommandSpec(), rest, (client, out) -> {
            String body = client.get("/listeners/" + AdminRun.seg(name) + "/offsets");
            if (rest.json()) {
                AdminRun.printJson(out, body);
            } else {
                printOffsets(out, new JsonObject(body));
            }
        });
    }

    @Command(name = "reset", mixinStandardHelpOptions = true,
            description = {"Moves the listener's group (all shards, or those given with --shard) to "
            + "a position. A dry run unless --execute: prints each shard's position before and after.",
            "The listener must be STOPPED to execute (bin/shardline listeners stop LISTENER); the moved shards' pending "
                    + "entries are dropped. Every shard its streams have now is moved; refused while one of them "
                    + "changes its shard count (bin/shardline streams describe STREAM)."},
            footer = ExitCodes.FOOTER)
    int reset(@Mixin RestOptions rest,
              @Parameters(paramLabel = "LISTENER", description = "The listener.") String name,
              @Option(names = "--to", required = true, paramLabel = "POSITION",
                      description = "earliest, latest, an entry id (<ms>-<seq>), @<epoch-ms>, or -<duration> back "
                              + "from now (-15m, -2h, -30s, -500ms, -1d).") String to,
              @Option(names = "--shard", paramLabel = "STREAM:N",
                      description = "Only this shard (repeat for more); default: every shard.") List<String> shards,
              @Option(names = "--execute", description = "Make the moves (default: dry run).") boolean execute) {
        CommandLine.Model.CommandSpec sub = spec.subcommands().get("reset").getCommandSpec();
        JsonObject body = new JsonObject();
        if (shards == null || shards.isEmpty()) {
            body.put("all", new JsonObject().put("position", to));
        } else {
            JsonArray list = new JsonArray();
            for (String s : shards) {
                int colon = s.lastIndexOf(':');
                int index;
                try {
                    index = Integer.parseInt(s.substring(colon + 1));
                } catch (RuntimeException e) {
                    throw new CommandLine.ParameterException(sub.commandLine(), "--shard '" + s
                            + "': must be STREAM:N, e.g. orders:3");
                }
                if (colon < 1 || index < 0) {
                    throw new CommandLine.ParameterException(sub.commandLine(), "--shard '" + s
                            + "': must be STREAM:N, e.g. orders:3");
                }
                list.add(new JsonObject().put("stream", s.substring(0, colon)).put("shard", index).put("position", to));
            }
            body.put("shards", list);
        }
        return AdminRun.run(sub, rest, (client, out) -> {
            String path = "/listeners/" + AdminRun.seg(name) + "/offsets" + (execute ? "" : "?dry_run=true");
            String answer = client.write("PATCH", path, body).body();
            if (rest.json()) {
                AdminRun.printJson(out, answer);
                return;
            }
            JsonObject altered = new JsonObject(answer);
            TableWriter table = new TableWriter("STREAM", "SHARD", "POSITION", "BEFORE", "AFTER", "PENDING-DROPPED");
            for (JsonObject c : AdminRun.objects(altered.getJsonArray("changes"))) {
                table.row(c.getString("stream"), c.getInteger("shard"), c.getString("position"),
                        c.getString("before"), c.getString("after"), c.getLong("pending_dropped"));
            }
            table.print(out);
            out.println(execute ? altered.getString("message")
                    : "Dry run: nothing was changed. Add --execute to make these moves (the listener must be STOPPED).");
        });
    }

    /** The table of a {@code GET /listeners/{name}/offsets} answer. */
    static void printOffsets(PrintWriter out, JsonObject offsets) {
        out.println("Listener " + offsets.getString("listener") + ", group " + offsets.getString("group")
                + ", start.from " + offsets.getString("start_from"));
        TableWriter table = new TableWriter("STREAM", "SHARD", "LAST-DELIVERED", "LAG", "PENDING", "OLDEST-PENDING",
                "OLDEST-AGE-MS");
        List<JsonObject> shards = new ArrayList<>(AdminRun.objects(offsets.getJsonArray("shards")));
        for (JsonObject s : shards) {
            table.row(s.getString("stream"), s.getInteger("shard"), s.getString("last_delivered_id"), s.getValue("lag"),
                    s.getLong("pending"), s.getString("oldest_pending_id"), s.getValue("oldest_pending_age_ms"));
        }
        table.print(out);
    }
}
