package io.shardline.runtime.cli;

import io.shardline.runtime.config.Version;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/shardline groups list | describe GROUP | delete GROUP}: the consumer groups of the cluster over any
 * worker's REST API ({@code GET /groups}, {@code GET /groups/{group}} with the positions of its listener,
 * {@code DELETE /groups/{group}}).
 */
@Command(name = "groups",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Lists, describes and deletes consumer groups.",
        footer = ExitCodes.FOOTER,
        subcommands = CommandLine.HelpCommand.class)
public final class GroupsCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: give one of list, describe, "
                + "delete");
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Every group: streams, listeners, state, members and total lag.",
            footer = ExitCodes.FOOTER)
    int list(@Mixin RestOptions rest) {
        return AdminRun.run(spec.subcommands().get("list").getCommandSpec(), rest, (client, out) -> {
            String body = client.get("/groups");
            if (rest.json()) {
                AdminRun.printJson(out, body);
                return;
            }
            TableWriter table = new TableWriter("GROUP", "STREAMS", "LISTENERS", "STATE", "LISTENER-STATE", "MEMBERS",
                    "LAG");
            for (JsonObject g : AdminRun.objects(new JsonArray(body))) {
                table.row(g.getString("group"), AdminRun.joined(g.getJsonArray("streams")),
                        AdminRun.joined(g.getJsonArray("listeners")), g.getString("state"),
                        g.getString("listener_state"), g.getInteger("members"), g.getValue("total_lag"));
            }
            table.print(out);
        });
    }

    @Command(name = "describe", mixinStandardHelpOptions = true,
            description = "One group: epochs, members and their shards, and the position of its "
            + "listener on every shard.", footer = ExitCodes.FOOTER)
    int describe(@Mixin RestOptions rest, @Parameters(paramLabel = "GROUP", description = "The group.") String group) {
        return AdminRun.run(spec.subcommands().get("describe").getCommandSpec(), rest, (client, out) -> {
            JsonObject summary = AdminRun.objects(new JsonArray(client.get("/groups"))).stream()
                    .filter(g -> group.equals(g.getString("group"))).findFirst()
                    .orElseThrow(() -> new AdminException(ExitCodes.NOT_FOUND, "unknown group '" + group + "'"));
            JsonObject view = "NOT_CREATED".equals(summary.getString("state")) ? null
                    : new JsonObject(client.get("/groups/" + AdminRun.seg(group)));
            JsonArray listeners = summary.getJsonArray("listeners");
            JsonObject offsets = listeners.isEmpty() ? null : new JsonObject(client.get("/listeners/"
                    + AdminRun.seg(listeners.getString(0)) + "/offsets"));
            if (rest.json()) {
                out.println(new JsonObject().put("summary", summary).put("group", view).put("offsets", offsets)
                        .encodePrettily());
                return;
            }
            out.println("Group " + group + ": " + summary.getString("state") + ", " + summary.getInteger("members")
                    + " member(s), streams " + AdminRun.joined(summary.getJsonArray("streams")) + ", listeners "
                    + AdminRun.joined(listeners) + (view == null ? "" : ", group epoch " + view.getInteger("group_epoch")
                    + ", assignment epoch " + view.getInteger("assignment_epoch") + ", assignor "
                    + view.getString("assignor")));
            if (view != null && !view.getJsonArray("members").isEmpty()) {
                out.println();
                TableWriter members = new TableWriter("MEMBER", "WORKER", "STATE", "EPOCH", "SHARDS", "REVOKING");
                for (JsonObject m : AdminRun.objects(view.getJsonArray("members"))) {
                    members.row(m.getString("id"), m.getString("worker_id"), m.getString("state"),
                            m.getInteger("member_epoch"), AdminRun.joined(m.getJsonArray("current")),
                            AdminRun.joined(m.getJsonArray("pending_revocation")));
                }
                members.print(out);
            }
            if (offsets != null) {
                out.println();
                OffsetsCommand.printOffsets(out, offsets);
            }
        });
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
            description = "Deletes a group that has no live member (its listeners STOPPED or "
            + "deleted): its Redis consumer groups, owner keys and audit trail.", footer = ExitCodes.FOOTER)
    int delete(@Mixin RestOptions rest, @Parameters(paramLabel = "GROUP", description = "The group.") String group) {
        return AdminRun.run(spec.subcommands().get("delete").getCommandSpec(), rest, (client, out) -> {
            client.write("DELETE", "/groups/" + AdminRun.seg(group), null);
            if (rest.json()) {
                out.println(new JsonObject().put("deleted", group).encodePrettily());
            } else {
                out.println("Deleted group " + group + ".");
            }
        });
    }
}
