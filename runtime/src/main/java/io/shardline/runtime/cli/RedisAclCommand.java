package io.shardline.runtime.cli;

import io.shardline.runtime.config.Version;
import io.shardline.runtime.redis.RedisAcl;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/shardline redis-acl}: prints the {@code ACL SETUSER} line that gives a worker's Redis user exactly the
 * commands and keys it needs ({@link RedisAcl}), for {@code redis-cli} (pipe it in) or, after {@code user <name>},
 * for an ACL file. The line sets no password and keeps the user's passwords. Exit codes: 0 printed; 2 bad option.
 */
@Command(name = "redis-acl",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        sortOptions = false,
        description = {"Prints the least-privilege Redis ACL of a worker as one ACL SETUSER line.",
                "Set the password once: redis-cli ACL SETUSER shardline '>secret'; then apply the rules:",
                "  bin/shardline redis-acl --stream orders | redis-cli",
                "See docs/security.md, \"Redis\"."})
public final class RedisAclCommand implements Callable<Integer> {

    private static final Pattern BARE = Pattern.compile("[^\\s\"'\\\\]+");

    @Option(names = "--stream", required = true, paramLabel = "NAME",
            description = "A logical stream the worker's listeners read (repeat for each).")
    private List<String> streams = new ArrayList<>();

    @Option(names = "--cluster", paramLabel = "NAME", defaultValue = "shardline",
            description = "The workers' cluster.name (default: ${DEFAULT-VALUE}).")
    private String cluster;

    @Option(names = "--dead-letter", paramLabel = "KEY",
            description = "A listener's dead-letter stream, dead.letter.stream (default there: <listener>.dlq); "
                    + "repeat for each.")
    private List<String> deadLetters = new ArrayList<>();

    @Option(names = "--user", paramLabel = "NAME", defaultValue = "shardline",
            description = "The ACL user, the workers' redis.user (default: ${DEFAULT-VALUE}).")
    private String user;

    @Option(names = "--xackdel", description = "The server is Redis 8.2 or newer: the worker acknowledges with XACKDEL.")
    private boolean xackdel;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        RedisAcl acl;
        try {
            acl = new RedisAcl(cluster, streams, deadLetters, xackdel);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (!BARE.matcher(user).matches()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--user '" + user
                    + "' must not contain spaces, quotes or backslashes");
        }
        List<String> words = new ArrayList<>(List.of("ACL", "SETUSER", user));
        acl.rules().forEach(rule -> words.add(quote(rule)));
        spec.commandLine().getOut().println(String.join(" ", words));
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** A word as redis-cli reads it: bare, or in double quotes with {@code "} and {@code \} escaped. */
    static String quote(String word) {
        if (BARE.matcher(word).matches()) {
            return word;
        }
        return "\"" + word.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
