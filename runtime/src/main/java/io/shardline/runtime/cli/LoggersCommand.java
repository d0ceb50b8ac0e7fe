package io.shardline.runtime.cli;

import io.shardline.runtime.config.Version;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/shardline loggers [NAME LEVEL] [--cluster]}: without arguments lists the worker's loggers with a
 * level of their own ({@code GET /admin/loggers}); with a name and a level sets it ({@code PUT /admin/loggers/NAME},
 * on every worker with {@code --cluster}), until the workers restart.
 */
@Command(name = "loggers",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = {"Lists a worker's log levels, or sets one (on every worker with --cluster).",
                "  bin/shardline loggers io.shardline.runtime.shard DEBUG --cluster"},
        footer = ExitCodes.FOOTER)
public final class LoggersCommand implements java.util.concurrent.Callable<Integer> {

    @Mixin
    private RestOptions rest;

    @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", description = "A logger (ROOT for the root).")
    private String name;

    @Parameters(index = "1", arity = "0..1", paramLabel = "LEVEL",
            description = "TRACE, DEBUG, INFO, WARN, ERROR or OFF.")
    private String level;

    @Option(names = "--cluster", description = "Set it on every live worker, not only the one at --url.")
    private boolean cluster;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (name != null && level == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give a LEVEL after the logger name "
                    + name + " (or no argument to list the levels)");
        }
        return AdminRun.run(spec, rest, (client, out) -> {
            if (name == null) {
                String body = client.get("/admin/loggers");
                if (rest.json()) {
                    AdminRun.printJson(out, body);
                    return;
                }
                TableWriter table = new TableWriter("LOGGER", "LEVEL");
                new JsonObject(body).forEach(e -> table.row(e.getKey(), ((JsonObject) e.getValue()).getString("level")));
                table.print(out);
                return;
            }
            String answer = client.write("PUT", "/admin/loggers/" + AdminRun.seg(name) + (cluster ? "?scope=cluster"
                    : ""), new JsonObject().put("level", level)).body();
            if (rest.json()) {
                AdminRun.printJson(out, answer);
                return;
            }
            JsonObject set = new JsonObject(answer);
            out.println("Log level of " + name + " set to " + set.getString("level") + " on "
                    + AdminRun.joined(set.getJsonArray("workers")) + " (until they restart).");
        });
    }
}
