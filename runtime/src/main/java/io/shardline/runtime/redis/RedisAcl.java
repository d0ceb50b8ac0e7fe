package io.shardline.runtime.redis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The least privilege a worker needs in Redis, as Redis ACL rules: the key patterns of a cluster's metadata
 * ({@code {shardline:<cluster>}*}), of each stream's shards and owner records ({@code {<stream>:*}}) and of the
 * dead-letter streams, and exactly the commands the worker sends ({@link #COMMANDS}), nothing by category: the
 * categories {@code @write} and {@code @scripting} hold {@code FLUSHALL} and {@code FUNCTION FLUSH}, which name
 * no key and so pass any key pattern. {@code bin/shardline redis-acl} prints it; {@link RedisPermissionCheck}
 * tries the same commands on the same keys when the worker starts.
 *
 * <p>Immutable.
 *
 * @param clusterName the worker's {@code cluster.name}
 * @param streams the logical streams the worker's listeners read
 * @param deadLetterKeys the listeners' dead-letter streams
 * @param xackdel whether the server has {@code XACKDEL} (Redis 8.2+), which the worker then uses
 */
public record RedisAcl(String clusterName, List<String> streams, List<String> deadLetterKeys, boolean xackdel) {

    /** What a command is sent on: which of the worker's keys it names. */
    public enum KeyKind {
        /** No key. */
        NONE,
        /** A key of the cluster's metadata ({@code {shardline:<cluster>}...}). */
        METADATA,
        /** A shard's stream key ({@code {<stream>:<i>}}). */
        SHARD,
        /** A shard's owner record ({@code {<stream>:<i>}:owner:<group>}). */
        OWNER,
        /** A dead-letter stream. */
        DEAD_LETTER
    }

    /** One command the worker sends (ACL name, e.g. {@code client|id}) and the kinds of key it names. */
    public record Use(String command, Set<KeyKind> keys) {

        /** Copies. */
        public Use {
            Objects.requireNonNull(command, "command");
            keys = Set.copyOf(keys);
        }
    }

    /**
     * Every command a worker sends, with the keys it names. {@code exec}, {@code multi}, {@code discard},
     * {@code watch}, {@code unwatch}: the fenced hot path ({@code FencedTransaction}); {@code eval}/{@code evalsha}:
     * the group log's scripts, the dead-letter redrive (REST) and the shard status reads (with {@code hmget},
     * {@code xinfo|groups}, {@code xpending} and {@code hgetall} inside); {@code xlen}, {@code xrevrange}, {@code xdel} on a
     * dead-letter stream: listing and redriving dead letters; {@code fcall}/{@code function|load}: the shard library; {@code time}, {@code type},
     * {@code xpending}, {@code xautoclaim}, {@code xrange} (the resharding read rule) run inside those scripts; {@code client|id}/{@code client|unblock} wake a
     * member's blocking read early; {@code cluster|slots}: the client's slot map on a Redis Cluster.
     */
    public static final List<Use> COMMANDS = List.of(
            use("ping"), use("info"), use("client|id"), use("client|unblock"), use("cluster|slots"),
            use("multi"), use("exec"), use("discard"), use("watch", KeyKind.OWNER), use("unwatch"),
            use("eval", KeyKind.METADATA, KeyKind.SHARD, KeyKind.OWNER, KeyKind.DEAD_LETTER),
            use("evalsha", KeyKind.METADATA, KeyKind.SHARD, KeyKind.OWNER, KeyKind.DEAD_LETTER), use("time"),
            use("function|load"), use("fcall", KeyKind.SHARD, KeyKind.OWNER),
            use("get", KeyKind.METADATA), use("set", KeyKind.METADATA), use("incr", KeyKind.METADATA),
            use("del", KeyKind.METADATA), use("type", KeyKind.METADATA), use("rpush", KeyKind.METADATA),
            use("lrange", KeyKind.METADATA),
            use("hget", KeyKind.METADATA), use("hgetall", KeyKind.METADATA, KeyKind.OWNER),
            use("hmget", KeyKind.OWNER), use("hset", KeyKind.METADATA, KeyKind.OWNER),
            use("hsetnx", KeyKind.METADATA), use("hdel", KeyKind.METADATA),
            use("xadd", KeyKind.METADATA, KeyKind.DEAD_LETTER), use("xrevrange", KeyKind.METADATA, KeyKind.SHARD, KeyKind.DEAD_LETTER),
            use("xreadgroup", KeyKind.SHARD), use("xread", KeyKind.SHARD), use("xack", KeyKind.SHARD),
            use("xdel", KeyKind.SHARD, KeyKind.DEAD_LETTER), use("xlen", KeyKind.DEAD_LETTER), use("xautoclaim", KeyKind.SHARD), use("xpending", KeyKind.SHARD),
            use("xrange", KeyKind.SHARD),
            use("xgroup|create", KeyKind.SHARD), use("xinfo|groups", KeyKind.SHARD));

    /** Only on Redis 8.2+: the acknowledge-and-delete command. */
    public static final Use XACKDEL = use("xackdel", KeyKind.SHARD);

    /** Validates and copies. */
    public RedisAcl {
        Objects.requireNonNull(clusterName, "clusterName");
        streams = List.copyOf(new LinkedHashSet<>(streams));
        deadLetterKeys = List.copyOf(new LinkedHashSet<>(deadLetterKeys));
        for (String name : streams) {
            if (name.isEmpty() || name.contains("{") || name.contains("}") || name.contains("*")) {
                throw new IllegalArgumentException("stream '" + name + "' must be non-empty, without '{', '}' or '*'");
            }
        }
        if (clusterName.isEmpty() || clusterName.contains("{") || clusterName.contains("}")) {
            throw new IllegalArgumentException("cluster '" + clusterName + "' must be non-empty, without '{' or '}'");
        }
    }

    /** The commands this worker sends: {@link #COMMANDS}, plus {@link #XACKDEL} on Redis 8.2+. */
    public List<Use> uses() {
        if (!xackdel) {
            return COMMANDS;
        }
        List<Use> all = new ArrayList<>(COMMANDS);
        all.add(XACKDEL);
        return List.copyOf(all);
    }

    /** The key patterns: {@code ~{shardline:<cluster>}*}, {@code ~{<stream>:*} per stream, each dead-letter key. */
    public List<String> keyPatterns() {
        List<String> patterns = new ArrayList<>();
        patterns.add("~{shardline:" + clusterName + "}*");
        streams.forEach(s -> patterns.add("~{" + s + ":*"));
        // A dead-letter key is literal: escape the glob characters Redis would read as a pattern.
        deadLetterKeys.forEach(k -> patterns.add("~" + k.replaceAll("([*?\\[\\]\\\\])", "\\\\$1")));
        return patterns;
    }

    /**
     * The ACL rules: {@code on}, the key patterns (after {@code resetkeys}), no channels, and the commands (after
     * {@code -@all}). Passwords are left as they are: set one with {@code ACL SETUSER <user> >password}.
     */
    public List<String> rules() {
        List<String> rules = new ArrayList<>(List.of("on", "resetkeys"));
        rules.addAll(keyPatterns());
        rules.add("resetchannels");
        rules.add("-@all");
        uses().forEach(u -> rules.add("+" + u.command()));
        return rules;
    }

    /** {@code ACL SETUSER <user> <rules...>}, one line for {@code redis-cli}. */
    public String setUser(String user) {
        return "ACL SETUSER " + user + " " + String.join(" ", rules());
    }

    private static Use use(String command, KeyKind... keys) {
        return new Use(command, keys.length == 0 ? Set.of(KeyKind.NONE) : Set.of(keys));
    }
}
