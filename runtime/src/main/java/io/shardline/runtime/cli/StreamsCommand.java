package io.shardline.runtime.cli;

import io.shardline.runtime.config.Version;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/shardline streams list | describe STREAM | create STREAM --shards N}: the logical streams of the
 * cluster and their topologies over any worker's REST API ({@code GET /streams}, {@code GET /streams/{stream}},
 * {@code POST /streams}). A stream's shard count is fixed when it is created (docs/operations.md, "Changing the
 * shard count").
 */
@Command(name = "streams",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Lists, describes and creates streams (their shard count, routing epoch and state).",
        footer = ExitCodes.FOOTER,
        subcommands = CommandLine.HelpCommand.class)
public final class StreamsCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: give one of list, describe, "
                + "create");
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Every stream: shards, routing epoch, state and the groups on it.", footer = ExitCodes.FOOTER)
    int list(@Mixin RestOptions rest) {
        return AdminRun.run(spec.subcommands().get("list").getCommandSpec(), rest, (client, out) -> {
            String body = client.get("/streams");
            if (rest.json()) {
                AdminRun.printJson(out, body);
                return;
            }
            TableWriter table = new TableWriter("STREAM", "SHARDS", "ROUTING-EPOCH", "STATE", "GROUPS");
            for (JsonObject s : AdminRun.objects(new JsonArray(body))) {
                table.row(s.getString("stream"), s.getInteger("shards"), s.getLong("routing_epoch"),
                        s.getString("state"), AdminRun.joined(s.getJsonArray("groups")));
            }
            table.print(out);
        });
    }

    @Command(name = "describe", mixinStandardHelpOptions = true,
            description = "One stream: its topology, the groups on it and the topology's history.",
            footer = ExitCodes.FOOTER)
    int describe(@Mixin RestOptions rest,
                 @Parameters(paramLabel = "STREAM", description = "The stream.") String stream) {
        return AdminRun.run(spec.subcommands().get("describe").getCommandSpec(), rest, (client, out) -> {
            String body = client.get("/streams/" + AdminRun.seg(stream));
            if (rest.json()) {
                AdminRun.printJson(out, body);
                return;
            }
            print(out, new JsonObject(body));
        });
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Creates a stream's topology with a shard count (its first listener would create it with "
                    + "its own count). Exit 5 when the stream exists.", footer = ExitCodes.FOOTER)
    int create(@Mixin RestOptions rest,
               @Parameters(paramLabel = "STREAM", description = "The stream.") String stream,
               @Option(names = "--shards", required = true, paramLabel = "N", description = "Its shard count.")
               int shards) {
        return AdminRun.run(spec.subcommands().get("create").getCommandSpec(), rest, (client, out) -> {
            String body = client.write("POST", "/streams", new JsonObject().put("stream", stream).put("shards", shards))
                    .body();
            if (rest.json()) {
                AdminRun.printJson(out, body);
                return;
            }
            out.println("Created stream " + stream + " with " + shards + " shard(s).");
        });
    }

    private static void print(java.io.PrintWriter out, JsonObject s) {
        out.println("Stream " + s.getString("stream") + ": " + s.getInteger("shards") + " shard(s), routing epoch "
                + s.getLong("routing_epoch") + ", " + s.getString("state") + ", groups "
                + AdminRun.joined(s.getJsonArray("groups")));
        JsonArray history = s.getJsonArray("history", new JsonArray());
        if (!history.isEmpty()) {
            out.println();
            TableWriter table = new TableWriter("ROUTING-EPOCH", "SHARDS", "STATE", "AT-MS", "REASON");
            for (JsonObject c : AdminRun.objects(history)) {
                table.row(c.getLong("routing_epoch"), c.getInteger("shards"), c.getString("state"), c.getLong("at_ms"),
                        c.getString("reason"));
            }
            table.print(out);
        }
    }
}
