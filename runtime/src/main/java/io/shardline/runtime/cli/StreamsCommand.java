package io.shardline.runtime.cli;

import io.shardline.runtime.config.Version;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/shardline streams list | describe STREAM | create STREAM --shards N | reshard STREAM --shards M |
 * rollback STREAM}: the logical streams of the cluster and their topologies over any worker's REST API
 * ({@code GET /streams}, {@code GET /streams/{stream}}, {@code POST /streams}, {@code POST
 * /streams/{stream}/reshard}, {@code POST /streams/{stream}/reshard/rollback}; docs/operations.md, "Changing the
 * shard count").
 */
@Command(name = "streams",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Lists, describes, creates and reshards streams (their shard count, routing epoch and state).",
        footer = ExitCodes.FOOTER,
        subcommands = CommandLine.HelpCommand.class)
public final class StreamsCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: give one of list, describe, "
                + "create, reshard, rollback");
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

    @Command(name = "reshard", mixinStandardHelpOptions = true,
            description = "Changes a stream's shard count while it is produced to and consumed: producers switch to "
                    + "the new count at once, each group reads a shard of the new layout past its cutover only after "
                    + "the old shards that feed it are handled, so every key keeps its order (docs/operations.md, "
                    + "Changing the shard count). Watch it with 'streams describe'. Exit 5 while another change runs "
                    + "or when the count is unchanged.", footer = ExitCodes.FOOTER)
    int reshard(@Mixin RestOptions rest,
                @Parameters(paramLabel = "STREAM", description = "The stream.") String stream,
                @Option(names = "--shards", required = true, paramLabel = "M", description = "The new shard count.")
                int shards) {
        return AdminRun.run(spec.subcommands().get("reshard").getCommandSpec(), rest, (client, out) -> {
            String body = client.write("POST", "/streams/" + AdminRun.seg(stream) + "/reshard",
                    new JsonObject().put("shards", shards)).body();
            if (rest.json()) {
                AdminRun.printJson(out, body);
                return;
            }
            JsonObject s = new JsonObject(body);
            out.println("Stream " + stream + " is changing from " + s.getInteger("from_shards") + " to "
                    + s.getInteger("shards") + " shard(s) under routing epoch " + s.getLong("routing_epoch")
                    + "; watch it with: bin/shardline streams describe " + stream);
        });
    }

    @Command(name = "rollback", mixinStandardHelpOptions = true,
            description = "Rolls a stream's running change back to the shard count before it (records already "
                    + "written in the new layout are handled first, in order). Exit 5 when no change runs.",
            footer = ExitCodes.FOOTER)
    int rollback(@Mixin RestOptions rest,
                 @Parameters(paramLabel = "STREAM", description = "The stream.") String stream) {
        return AdminRun.run(spec.subcommands().get("rollback").getCommandSpec(), rest, (client, out) -> {
            String body = client.write("POST", "/streams/" + AdminRun.seg(stream) + "/reshard/rollback",
                    new JsonObject()).body();
            if (rest.json()) {
                AdminRun.printJson(out, body);
                return;
            }
            JsonObject s = new JsonObject(body);
            out.println("Stream " + stream + " is rolling back to " + s.getInteger("shards")
                    + " shard(s) under routing epoch " + s.getLong("routing_epoch")
                    + "; watch it with: bin/shardline streams describe " + stream);
        });
    }

    private static void print(java.io.PrintWriter out, JsonObject s) {
        out.println("Stream " + s.getString("stream") + ": " + s.getInteger("shards") + " shard(s), routing epoch "
                + s.getLong("routing_epoch") + ", " + s.getString("state") + ", groups "
                + AdminRun.joined(s.getJsonArray("groups")));
        if (s.getJsonObject("layouts") != null) {
            out.println("Change from " + s.getInteger("from_shards") + " shard(s); layouts by routing epoch "
                    + s.getJsonObject("layouts").encode());
        }
        JsonObject progress = s.getJsonObject("progress");
        if (progress != null) {
            out.println();
            TableWriter table = new TableWriter("GROUP", "MEMBERS", "PASSED", "WAITING (SHARD<-PARENTS)",
                    "LEFT-OUT NOT DRAINED");
            progress.getJsonObject("groups", new JsonObject()).forEach(e -> {
                JsonObject g = (JsonObject) e.getValue();
                StringBuilder waits = new StringBuilder();
                for (JsonObject w : AdminRun.objects(g.getJsonArray("waiting", new JsonArray()))) {
                    waits.append(waits.length() == 0 ? "" : " ").append(w.getInteger("shard")).append("<-")
                            .append(AdminRun.joined(w.getJsonArray("parents")));
                }
                table.row(e.getKey(), g.getInteger("members"), g.getInteger("passed") + "/" + g.getInteger("of"),
                        waits.length() == 0 ? "-" : waits.toString(),
                        AdminRun.joined(g.getJsonArray("retiring_not_drained")));
            });
            table.print(out);
            for (Object reason : progress.getJsonArray("blocked", new JsonArray())) {
                out.println("Blocked: " + reason);
            }
        }
        JsonArray history = s.getJsonArray("history", new JsonArray());
        if (!history.isEmpty()) {
            out.println();
            TableWriter table = new TableWriter("ROUTING-EPOCH", "SHARDS", "STATE", "AT", "REASON");
            for (JsonObject c : AdminRun.objects(history)) {
                Long at = c.getLong("at_ms");
                table.row(c.getLong("routing_epoch"), c.getInteger("shards"), c.getString("state"),
                        at == null ? "-" : Instant.ofEpochMilli(at).toString(), c.getString("reason"));
            }
            table.print(out);
        }
    }
}
