package io.shardline.runtime.cli;

import io.shardline.runtime.config.Version;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/shardline dlq list LISTENER [--limit N] | show LISTENER ID | redrive LISTENER (--ids ID... | --all)
 * [--to-stream S] [--execute]}: a listener's dead letters ({@code GET /listeners/{name}/dead-letters}) and writing them
 * back ({@code POST .../redrive}; a dry run printing where each would go unless {@code --execute}, as
 * {@code offsets reset}). See docs/operations.md, "Dead letters".
 */
@Command(name = "dlq",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Lists, shows and redrives a listener's dead letters.",
        footer = ExitCodes.FOOTER,
        subcommands = CommandLine.HelpCommand.class)
public final class DlqCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: give one of list, show, redrive");
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "The newest dead letters: id, time, origin shard and entry id, key, delivery count, error.",
            footer = ExitCodes.FOOTER)
    int list(@Mixin RestOptions rest, @Parameters(paramLabel = "LISTENER", description = "The listener.") String name,
             @Option(names = "--limit", defaultValue = "50", paramLabel = "N",
                     description = "At most this many, 1..1000 (default: ${DEFAULT-VALUE}).") int limit) {
        return AdminRun.run(spec.subcommands().get("list").getCommandSpec(), rest, (client, out) -> {
            String body = client.get("/listeners/" + AdminRun.seg(name) + "/dead-letters?limit=" + limit);
            if (rest.json()) {
                AdminRun.printJson(out, body);
                return;
            }
            JsonObject page = new JsonObject(body);
            out.println("Listener " + page.getString("listener") + ", dead-letter stream " + page.getString("stream")
                    + ": " + page.getLong("total") + " dead letter(s), newest first");
            TableWriter table = new TableWriter("ID", "TIME-MS", "FROM", "ENTRY-ID", "KEY", "DELIVERIES", "ERROR");
            for (JsonObject d : AdminRun.objects(page.getJsonArray("dead_letters"))) {
                table.row(d.getString("id"), d.getLong("time_ms"), origin(d), d.getString("entry_id"), d.getString("key"),
                        d.getValue("deliveries"), d.getString("error"));
            }
            table.print(out);
            if (page.getString("next_before") != null) {
                out.println("More: GET /listeners/" + name + "/dead-letters?before=" + page.getString("next_before"));
            }
        });
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "One dead letter: its origin, error, delivery count and the record's fields.",
            footer = ExitCodes.FOOTER)
    int show(@Mixin RestOptions rest, @Parameters(index = "0", paramLabel = "LISTENER", description = "The listener.") String name,
             @Parameters(index = "1", paramLabel = "ID", description = "The dead letter's id (from dlq list).") String id) {
        return AdminRun.run(spec.subcommands().get("show").getCommandSpec(), rest, (client, out) -> {
            String body = client.get("/listeners/" + AdminRun.seg(name) + "/dead-letters/" + AdminRun.seg(id));
            if (rest.json()) {
                AdminRun.printJson(out, body);
                return;
            }
            JsonObject d = new JsonObject(body);
            TableWriter table = new TableWriter("FIELD", "VALUE");
            table.row("id", d.getString("id"));
            table.row("time_ms", d.getLong("time_ms"));
            table.row("from", origin(d));
            table.row("entry_id", d.getString("entry_id"));
            table.row("key", d.getString("key"));
            table.row("deliveries", d.getValue("deliveries"));
            table.row("attempts", d.getValue("attempts"));
            table.row("member", d.getString("member"));
            table.row("error", d.getString("error"));
            JsonObject fields = d.getJsonObject("fields", new JsonObject());
            fields.fieldNames().forEach(f -> table.row("field " + f, fields.getValue(f)));
            table.print(out);
        });
    }

    @Command(name = "redrive", mixinStandardHelpOptions = true,
            description = {"Writes dead letters back, oldest first: to the shard their key routes to under the "
                    + "stream's topology (as the producer routes), or to --to-stream. A dry run unless "
                    + "--execute: prints where each would go.",
                    "Each is removed from the dead-letter stream only after its write succeeded."},
            footer = ExitCodes.FOOTER)
    int redrive(@Mixin RestOptions rest,
                @Parameters(paramLabel = "LISTENER", description = "The listener.") String name,
                @Option(names = "--ids", split = ",", paramLabel = "ID",
                        description = "These dead letters (comma-separated or repeated).") List<String> ids,
                @Option(names = "--all", description = "Every dead letter of the listener.") boolean all,
                @Option(names = "--to-stream", paramLabel = "STREAM",
                        description = "Write them to this stream key instead of their source shards.") String toStream,
                @Option(names = "--execute", description = "Write them back (default: dry run).") boolean execute) {
        CommandLine.Model.CommandSpec sub = spec.subcommands().get("redrive").getCommandSpec();
        boolean someIds = ids != null && !ids.isEmpty();
        if (someIds == all) {
            throw new CommandLine.ParameterException(sub.commandLine(), "give exactly one of --ids ID[,ID...] or --all");
        }
        JsonObject body = someIds ? new JsonObject().put("ids", new JsonArray(ids)) : new JsonObject().put("all", true);
        if (toStream != null) {
            body.put("to_stream", toStream);
        }
        return AdminRun.run(sub, rest, (client, out) -> {
            String path = "/listeners/" + AdminRun.seg(name) + "/dead-letters/redrive" + (execute ? "" : "?dry_run=true");
            String answer = client.write("POST", path, body).body();
            if (rest.json()) {
                AdminRun.printJson(out, answer);
                return;
            }
            JsonObject done = new JsonObject(answer);
            TableWriter table = new TableWriter("ID", "TO", "NEW-ID");
            for (JsonObject l : AdminRun.objects(done.getJsonArray("redriven"))) {
                table.row(l.getString("id"), l.getString("to"), l.getString("new_id"));
            }
            table.print(out);
            List<Object> skipped = done.getJsonArray("skipped", new JsonArray()).getList();
            if (!skipped.isEmpty()) {
                out.println("Skipped (gone from the dead-letter stream meanwhile): " + skipped);
            }
            out.println(execute ? done.getString("message")
                    : "Dry run: nothing was changed. Add --execute to write these dead letters back.");
        });
    }

    private static String origin(JsonObject d) {
        return d.getString("stream") == null ? null : d.getString("stream") + ":" + d.getValue("shard");
    }
}
