package io.shardline.runtime.cli;

import io.shardline.runtime.config.Version;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/shardline listeners list | status L | members L | pause L | resume L | stop L | restart L [--member ID]}:
 * listeners over any worker's REST API ({@code GET /listeners?expand=status}, {@code GET .../status},
 * {@code GET .../members}, {@code PUT .../pause|resume|stop}, {@code POST .../restart}, {@code POST
 * .../members/{id}/restart}).
 */
@Command(name = "listeners",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Lists listeners, shows their status, pauses, resumes, stops and restarts them.",
        footer = ExitCodes.FOOTER,
        subcommands = CommandLine.HelpCommand.class)
public final class ListenersCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: give one of list, status, "
                + "members, pause, resume, stop, restart");
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Every listener with its state, group, members and owned shards.",
            footer = ExitCodes.FOOTER)
    int list(@Mixin RestOptions rest) {
        return AdminRun.run(sub("list"), rest, (client, out) -> {
            String body = client.get("/listeners?expand=status");
            if (rest.json()) {
                AdminRun.printJson(out, body);
                return;
            }
            TableWriter table = new TableWriter("LISTENER", "STATE", "TARGET", "GROUP", "MEMBERS", "SHARDS", "OWNED");
            new JsonObject(body).forEach(e -> {
                JsonObject s = ((JsonObject) e.getValue()).getJsonObject("status");
                // The status lists a page of shards; the members' reports name every shard they own.
                long owned = AdminRun.objects(s.getJsonArray("members")).stream()
                        .mapToLong(m -> m.getJsonArray("shards").size()).sum();
                table.row(e.getKey(), s.getString("state"), s.getString("target_state"), s.getString("group"),
                        s.getJsonArray("members").size(), s.getInteger("shards_total", s.getJsonArray("shards").size()),
                        owned);
            });
            table.print(out);
        });
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "One listener's state, members and shards.", footer = ExitCodes.FOOTER)
    int status(@Mixin RestOptions rest, @Parameters(paramLabel = "LISTENER", description = "The listener.") String name,
               @Option(names = "--offset", defaultValue = "0",
                       description = "Position of the first shard listed (default ${DEFAULT-VALUE}).") int offset,
               @Option(names = "--limit", defaultValue = "1000",
                       description = "Most shards listed, at most 10000 (default ${DEFAULT-VALUE}).") int limit) {
        return AdminRun.run(sub("status"), rest, (client, out) -> {
            String body = client.get("/listeners/" + AdminRun.seg(name) + "/status?offset=" + offset + "&limit="
                    + limit);
            if (rest.json()) {
                AdminRun.printJson(out, body);
            } else {
                printStatus(out, new JsonObject(body));
            }
        });
    }

    @Command(name = "pause", mixinStandardHelpOptions = true,
            description = "Pauses a listener on every worker (members keep their shards).",
            footer = ExitCodes.FOOTER)
    int pause(@Mixin RestOptions rest, @Parameters(paramLabel = "LISTENER", description = "The listener.") String name) {
        return target(sub("pause"), rest, name, "pause", "Pause");
    }

    @Command(name = "resume", mixinStandardHelpOptions = true,
            description = "Resumes a paused or stopped listener.", footer = ExitCodes.FOOTER)
    int resume(@Mixin RestOptions rest, @Parameters(paramLabel = "LISTENER", description = "The listener.") String name) {
        return target(sub("resume"), rest, name, "resume", "Resume");
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = "Stops a listener: its members leave the group and release every shard "
            + "(needed before offsets reset and groups delete).", footer = ExitCodes.FOOTER)
    int stop(@Mixin RestOptions rest, @Parameters(paramLabel = "LISTENER", description = "The listener.") String name) {
        return target(sub("stop"), rest, name, "stop", "Stop");
    }

    @Command(name = "members", mixinStandardHelpOptions = true,
            description = "A listener's members on every worker (Connect's tasks): state, epoch and shards.",
            footer = ExitCodes.FOOTER)
    int members(@Mixin RestOptions rest, @Parameters(paramLabel = "LISTENER", description = "The listener.") String name) {
        return AdminRun.run(sub("members"), rest, (client, out) -> {
            String body = client.get("/listeners/" + AdminRun.seg(name) + "/members");
            if (rest.json()) {
                AdminRun.printJson(out, body);
            } else {
                printMembers(out, new JsonArray(body));
            }
        });
    }

    @Command(name = "restart", mixinStandardHelpOptions = true,
            description = "Restarts a listener on every worker (KIP-745), only its failed members, or one member.",
            footer = ExitCodes.FOOTER)
    int restart(@Mixin RestOptions rest,
                @Parameters(paramLabel = "LISTENER", description = "The listener.") String name,
                @Option(names = "--include-members", description = "Answer with the restarting members.")
                boolean includeMembers,
                @Option(names = "--only-failed", description = "Restart only the members that FAILED.") boolean onlyFailed,
                @Option(names = "--member", paramLabel = "ID", description = "Restart only this member: it leaves its "
                        + "group and rejoins on its worker (bin/shardline listeners members L lists the ids).")
                String member) {
        if (member != null) {
            return AdminRun.run(sub("restart"), rest, (client, out) -> {
                String answer = client.write("POST", "/listeners/" + AdminRun.seg(name) + "/members/"
                        + AdminRun.seg(member) + "/restart", null).body();
                if (rest.json()) {
                    AdminRun.printJson(out, answer);
                } else {
                    out.println("Restart of member " + member + " of listener " + name + " requested: it leaves its "
                            + "group and rejoins (bin/shardline listeners members " + name + ").");
                }
            });
        }
        return AdminRun.run(sub("restart"), rest, (client, out) -> {
            String answer = client.write("POST", "/listeners/" + AdminRun.seg(name) + "/restart?includeMembers="
                    + includeMembers + "&onlyFailed=" + onlyFailed, null).body();
            if (rest.json()) {
                AdminRun.printJson(out, answer == null || answer.isBlank() ? "{}" : answer);
            } else if (answer == null || answer.isBlank()) {
                out.println("Restart of listener " + name + " requested.");
            } else {
                printStatus(out, new JsonObject(answer));
            }
        });
    }

    private int target(CommandLine.Model.CommandSpec sub, RestOptions rest, String name, String verb, String noun) {
        return AdminRun.run(sub, rest, (client, out) -> {
            client.write("PUT", "/listeners/" + AdminRun.seg(name) + "/" + verb, null);
            if (rest.json()) {
                out.println(new JsonObject().put("listener", name).put("requested", verb).encodePrettily());
            } else {
                out.println(noun + " of listener " + name + " requested; every worker applies it within one heartbeat "
                        + "interval (bin/shardline listeners status " + name + ").");
            }
        });
    }

    private CommandLine.Model.CommandSpec sub(String name) {
        return spec.subcommands().get(name).getCommandSpec();
    }

    private static void printStatus(PrintWriter out, JsonObject s) {
        out.println("Listener " + s.getString("name") + ": " + s.getString("state") + " (target "
                + s.getString("target_state") + "), group " + s.getString("group")
                + (s.getString("trace") == null ? "" : ", failure: " + s.getString("trace")));
        out.println();
        printMembers(out, s.getJsonArray("members"));
        out.println();
        TableWriter shards = new TableWriter("STREAM", "SHARD", "STATE", "OWNER", "LAG", "PENDING", "LAST-PROCESSED");
        for (JsonObject x : AdminRun.objects(s.getJsonArray("shards"))) {
            shards.row(x.getString("stream"), x.getInteger("shard"), x.getString("state"), x.getString("owner"),
                    x.getValue("lag"), x.getLong("pending"), x.getString("last_processed_id"));
        }
        shards.print(out);
        Integer total = s.getInteger("shards_total");
        int listed = s.getJsonArray("shards").size();
        if (total != null && listed < total) {
            int from = s.getInteger("shards_offset", 0);
            out.println();
            out.println("Shards " + (listed == 0 ? "none" : (from + 1) + "-" + (from + listed)) + " of " + total
                    + " listed; page with --offset and --limit.");
        }
    }

    private static void printMembers(PrintWriter out, JsonArray list) {
        TableWriter members = new TableWriter("MEMBER", "WORKER", "STATE", "EPOCH", "SHARDS");
        for (JsonObject m : AdminRun.objects(list)) {
            members.row(m.getString("id"), m.getString("worker_id"), m.getString("state"), m.getValue("epoch"),
                    AdminRun.joined(m.getJsonArray("shards")));
        }
        members.print(out);
    }
}
