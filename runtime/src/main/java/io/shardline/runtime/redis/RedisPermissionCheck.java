package io.shardline.runtime.redis;

import io.shardline.runtime.redis.RedisAcl.KeyKind;
import io.shardline.runtime.redis.RedisAcl.Use;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Checks at start that the worker's Redis user may run every command of {@link RedisAcl} on the worker's own
 * keys, without running any of them and without admin rights ({@code ACL DRYRUN} needs {@code @admin}): the
 * commands are queued in a {@code MULTI} and the transaction is discarded. Redis checks the ACL when it queues a
 * command, so each denied command answers {@code NOPERM} at once and nothing is executed. Denials are reported
 * with the command and the key it was tried on ({@link RedisPermissionException}).
 *
 * <p>Standalone servers only: on a Redis Cluster a transaction cannot name keys of several slots. Stateless.
 */
public final class RedisPermissionCheck {

    private final RedisAcl acl;
    private final Map<String, String> groupByStream;

    /**
     * A check of {@code acl}'s commands.
     *
     * @param groupByStream for each stream of {@code acl}, a consumer group reading it (names the owner key tried)
     */
    public RedisPermissionCheck(RedisAcl acl, Map<String, String> groupByStream) {
        this.acl = Objects.requireNonNull(acl, "acl");
        this.groupByStream = Map.copyOf(groupByStream);
    }

    /** One command that was refused: what was tried, on which key (or none), and Redis's answer. */
    public record Denial(String command, String key, String reply) {

        /** {@code XADD on key 'orders.dlq'}, or {@code CLIENT|UNBLOCK}. */
        public String describe() {
            String what = command.toUpperCase(Locale.ROOT);
            return key == null ? what : what + " on key '" + key + "'";
        }
    }

    /** Runs the check on a connection of {@code redis}; fails with {@link RedisPermissionException} on a denial. */
    public Future<Void> run(RedisClient redis) {
        if (redis.config().cluster()) {
            return Future.succeededFuture();
        }
        return redis.redis().connect().compose(connection -> probe(connection)
                .eventually(connection::close)
                .compose(denials -> denials.isEmpty() ? Future.<Void>succeededFuture()
                        : Future.failedFuture(new RedisPermissionException(redis.config().user(), denials, acl))));
    }

    private Future<List<Denial>> probe(RedisConnection connection) {
        return connection.send(Request.cmd(Command.MULTI)).recover(e -> Future.failedFuture(
                new RedisPermissionException(null, List.of(new Denial("multi", null, e.getMessage())), acl)))
                .compose(ok -> {
                    List<Denial> denials = new java.util.concurrent.CopyOnWriteArrayList<>();
                    List<Future<?>> sent = new ArrayList<>();
                    for (Probe p : probes()) {
                        // Pipelined on one connection: replies come back in order, each queued or refused.
                        sent.add(connection.send(p.request()).onFailure(e -> {
                            if (RedisErrors.isNoPerm(e)) {
                                denials.add(new Denial(p.command(), p.key(), e.getMessage()));
                            }
                        }));
                    }
                    sent.add(connection.send(Request.cmd(Command.DISCARD)).onFailure(e -> {
                        if (RedisErrors.isNoPerm(e)) {
                            denials.add(new Denial("discard", null, e.getMessage()));
                        }
                    }));
                    return Future.join(sent).transform(ignored -> Future.succeededFuture(sortedCopy(denials)));
                });
    }

    private static List<Denial> sortedCopy(List<Denial> denials) {
        List<Denial> out = new ArrayList<>(denials);
        out.sort(java.util.Comparator.comparing(Denial::command).thenComparing(d -> d.key() == null ? "" : d.key()));
        return List.copyOf(out);
    }

    /** A command to queue and the key it names. */
    record Probe(String command, String key, Request request) {
    }

    /** The commands to queue: every use of {@link RedisAcl#uses()} on every key of its kinds. */
    List<Probe> probes() {
        List<Probe> probes = new ArrayList<>();
        for (Use use : acl.uses()) {
            // MULTI opened the check, DISCARD closes it; EXEC cannot be queued. Only /health sends PING, and a denied
            // PING still shows that Redis answers.
            if (List.of("multi", "exec", "discard", "ping").contains(use.command())) {
                continue;
            }
            for (KeyKind kind : use.keys()) {
                for (String[] keys : keysOf(kind)) {
                    probes.add(new Probe(use.command(), kind == KeyKind.NONE ? null : keys[0],
                            request(use.command(), keys)));
                }
            }
        }
        return probes;
    }

    /** The keys tried for a kind; an owner probe also carries its shard key (for {@code FCALL}). */
    private List<String[]> keysOf(KeyKind kind) {
        List<String[]> out = new ArrayList<>();
        switch (kind) {
            case NONE -> out.add(new String[] {null});
            case METADATA -> out.add(new String[] {"{shardline:" + acl.clusterName() + "}:leader-epoch"});
            case SHARD -> acl.streams().forEach(s -> out.add(new String[] {shard(s), owner(s)}));
            case OWNER -> acl.streams().forEach(s -> out.add(new String[] {owner(s), shard(s)}));
            case DEAD_LETTER -> acl.deadLetterKeys().forEach(k -> out.add(new String[] {k}));
            default -> throw new IllegalStateException("unknown key kind " + kind);
        }
        return out;
    }

    private static String shard(String stream) {
        return "{" + stream + ":0}";
    }

    private String owner(String stream) {
        return shard(stream) + ":owner:" + groupByStream.getOrDefault(stream, stream);
    }

    private static Request request(String command, String[] keys) {
        String key = keys[0];
        String other = keys.length > 1 ? keys[1] : null;
        return switch (command) {
            case "ping", "time", "unwatch" -> cmd(command);
            case "info" -> cmd("info", "server");
            case "client|id" -> cmd("client", "id");
            case "client|unblock" -> cmd("client", "unblock", "0");
            case "cluster|slots" -> cmd("cluster", "slots");
            case "function|load" -> cmd("function", "load", "#!lua name=shardline_permission_check\n");
            case "fcall" -> key.contains(":owner:")
                    ? cmd("fcall", "shard_read", "2", other, key)
                    : cmd("fcall", "shard_read", "2", key, other);
            case "eval" -> cmd("eval", "return 0", "1", key);
            case "evalsha" -> cmd("evalsha", "0000000000000000000000000000000000000000", "1", key);
            case "watch", "get", "incr", "del", "type", "hgetall", "xinfo|groups", "xlen" -> keyed(command, key);
            case "set" -> cmd("set", key, "v");
            case "rpush" -> cmd("rpush", key, "v");
            case "lrange" -> cmd("lrange", key, "0", "0");
            case "hget", "hmget", "hdel" -> cmd(command, key, "f");
            case "hset", "hsetnx" -> cmd(command, key, "f", "v");
            case "xadd" -> cmd("xadd", key, "*", "f", "v");
            case "xrevrange" -> cmd("xrevrange", key, "+", "-", "COUNT", "1");
            case "xrange" -> cmd("xrange", key, "-", "+", "COUNT", "1");
            case "xreadgroup" -> cmd("xreadgroup", "GROUP", "g", "c", "COUNT", "1", "STREAMS", key, ">");
            case "xread" -> cmd("xread", "COUNT", "1", "STREAMS", key, "0");
            case "xack" -> cmd("xack", key, "g", "0-1");
            case "xdel" -> cmd("xdel", key, "0-1");
            case "xautoclaim" -> cmd("xautoclaim", key, "g", "c", "0", "0-0", "COUNT", "1", "JUSTID");
            case "xpending" -> cmd("xpending", key, "g");
            case "xgroup|create" -> cmd("xgroup", "create", key, "g", "$", "MKSTREAM");
            case "xackdel" -> cmd("xackdel", key, "g", "IDS", "1", "0-1");
            default -> throw new IllegalStateException("no permission probe for '" + command + "'");
        };
    }

    private static Request keyed(String command, String key) {
        if (command.equals("xinfo|groups")) {
            return cmd("xinfo", "groups", key);
        }
        return cmd(command, key);
    }

    private static Request cmd(String name, String... args) {
        Request request = Request.cmd(Command.create(name));
        for (String arg : args) {
            request.arg(arg);
        }
        return request;
    }
}
