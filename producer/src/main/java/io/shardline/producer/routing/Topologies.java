package io.shardline.producer.routing;

import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads and creates stream topologies ({@link RoutingTopology#key}; docs/protocol.md, section 8b). The one
 * implementation of the create, used by producers and by the worker runtime ({@code TopologyStore}): one atomic
 * script on the topology's key creates it with routing epoch 1 and state {@code STABLE} unless it exists, and answers
 * what is there; then, for a cluster name, the stream is registered in {@link #registryKey} (stream to {@code 1}),
 * which {@code GET /streams} lists. Thread-safe.
 */
public final class Topologies {

    /** Whether {@link #create} made the topology or found it, and the topology hash as it is now. */
    public record Created(Map<String, String> fields, boolean created) {

        /** Copies. */
        public Created {
            fields = Map.copyOf(fields);
        }

        /** The routing fields. */
        public RoutingTopology topology(String stream) {
            return RoutingTopology.fromHash(stream, fields);
        }
    }

    /**
     * The create script, for clients that call it without this class (e.g. over plain RESP): KEYS: topology; ARGV:
     * stream, shards, reason. Returns {created (0|1), HGETALL}.
     */
    public static final String CREATE_SCRIPT = """
            local created = 0
            if not redis.call('HGET', KEYS[1], 'shards') then
              local t = redis.call('TIME')
              local now = string.format('%.0f', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
              local change = '{"routing_epoch":1,"shards":' .. ARGV[2] .. ',"state":"STABLE","at_ms":' .. now
                .. ',"reason":' .. cjson.encode(ARGV[3]) .. '}'
              redis.call('HSET', KEYS[1], 'format', '1', 'stream', ARGV[1], 'shards', ARGV[2], 'routing_epoch', '1',
                'state', 'STABLE', 'created_ms', now, 'history', '[' .. change .. ']')
              created = 1
            end
            return {created, redis.call('HGETALL', KEYS[1])}
            """;

    private static final String CREATE_SHA1 = sha1(CREATE_SCRIPT);

    private final RoutingRedis redis;

    /** Over {@code redis}. */
    public Topologies(RoutingRedis redis) {
        this.redis = Objects.requireNonNull(redis, "redis");
    }

    /** The hash listing the streams of cluster {@code clusterName}: {@code {shardline:<cluster>}:streams}. */
    public static String registryKey(String clusterName) {
        return "{shardline:" + Objects.requireNonNull(clusterName, "clusterName") + "}:streams";
    }

    /** The whole topology hash of {@code stream}, empty when none was created. */
    public Future<Map<String, String>> readHash(String stream) {
        return redis.send(Request.cmd(Command.HGETALL).arg(RoutingTopology.key(stream))).map(Topologies::toMap);
    }

    /** The routing fields of {@code stream}'s topology, empty when none was created. */
    public Future<Optional<RoutingTopology>> read(String stream) {
        return readHash(stream).map(fields -> fields.isEmpty() ? Optional.empty()
                : Optional.of(RoutingTopology.fromHash(stream, fields)));
    }

    /**
     * Creates {@code stream}'s topology with {@code shards} shards unless it exists (then it is answered unchanged).
     *
     * @param reason recorded in the history, e.g. {@code listener orders}
     * @param clusterName the cluster to register the stream with, or null for none
     */
    public Future<Created> create(String stream, int shards, String reason, String clusterName) {
        if (shards < 1) {
            return Future.failedFuture(new IllegalArgumentException("stream '" + stream + "': a shard count must be "
                    + ">= 1, got " + shards));
        }
        Future<Created> created = script(stream, Integer.toString(shards), reason)
                .map(reply -> new Created(toMap(reply.get(1)), reply.get(0).toInteger() == 1));
        if (clusterName == null) {
            return created;
        }
        return created.compose(c -> redis.send(Request.cmd(Command.HSET).arg(registryKey(clusterName)).arg(stream)
                .arg("1")).map(ok -> c));
    }

    private Future<Response> script(String stream, String shards, String reason) {
        return redis.send(eval(Command.EVALSHA, CREATE_SHA1, stream, shards, reason)).recover(e ->
                String.valueOf(e.getMessage()).startsWith("NOSCRIPT")
                        ? redis.send(eval(Command.EVAL, CREATE_SCRIPT, stream, shards, reason))
                        : Future.failedFuture(e));
    }

    private static Request eval(Command command, String script, String stream, String shards, String reason) {
        return Request.cmd(command).arg(script).arg(1).arg(RoutingTopology.key(stream)).arg(stream).arg(shards).arg(reason);
    }

    /** A hash reply as a map: RESP3 map or RESP2 / script flat array. */
    static Map<String, String> toMap(Response reply) {
        Map<String, String> out = new LinkedHashMap<>();
        if (reply == null) {
            return out;
        }
        if (reply.isMap()) {
            for (String k : reply.getKeys()) {
                out.put(k, reply.get(k).toString());
            }
            return out;
        }
        for (int i = 0; i + 1 < reply.size(); i += 2) {
            out.put(reply.get(i).toString(), reply.get(i + 1).toString());
        }
        return out;
    }

    private static String sha1(String source) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every JVM", e);
        }
    }
}
