package io.shardline.runtime.cli;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import picocli.CommandLine;

/**
 * Runs one {@code bin/shardline} admin command: its {@link AdminException} is printed to stderr as one line and
 * becomes the exit code; JSON answers are printed as they came when {@code --json} is given. Stateless.
 */
final class AdminRun {

    /** The body of a command. */
    @FunctionalInterface
    interface Body {
        void run(AdminClient client, PrintWriter out);
    }

    private AdminRun() {
    }

    /** Runs {@code body} with the client of {@code rest}; answers the exit code. */
    static int run(CommandLine.Model.CommandSpec spec, RestOptions rest, Body body) {
        PrintWriter out = spec.commandLine().getOut();
        try {
            body.run(rest.client(), out);
            out.flush();
            return ExitCodes.OK;
        } catch (AdminException e) {
            out.flush();
            PrintWriter err = spec.commandLine().getErr();
            err.println("shardline " + spec.qualifiedName(" ").replaceFirst("^shardline ", "") + ": " + e.getMessage());
            err.flush();
            return e.exitCode();
        }
    }

    /** Prints {@code json} pretty (for {@code --json}). */
    static void printJson(PrintWriter out, String json) {
        String t = json.strip();
        out.println(t.startsWith("[") ? new JsonArray(t).encodePrettily() : new JsonObject(t).encodePrettily());
    }

    /** A path segment, URL-encoded. */
    static String seg(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The objects of a JSON array. */
    static List<JsonObject> objects(JsonArray array) {
        return array == null ? List.of() : array.stream().map(o -> (JsonObject) o).toList();
    }

    /** {@code a, b} of a string array, or {@code -}. */
    static String joined(JsonArray array) {
        return array == null || array.isEmpty() ? "-" : String.join(",", array.stream().map(String::valueOf).toList());
    }
}
