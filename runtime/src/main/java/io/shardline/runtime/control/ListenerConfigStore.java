package io.shardline.runtime.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisReplies;
import io.shardline.runtime.store.LuaScript;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The configurations of listeners created over REST, stored in Redis (hash {@link ControlKeys#listenerConfigs()},
 * one JSON value per listener: {@code {"revision":<n>,"config":{...raw strings, placeholders unresolved}}}) so
 * that every worker runs them, like listeners from files. Every write gives the listener a new revision in the
 * same atomic step (the Redis server's time in ms, above the listener's previous revision): the members send it
 * with the group's configuration and the coordinator keeps the newest ({@code docs/protocol.md}). A value
 * written before revisions existed (a plain JSON object of strings) reads as revision 0. Thread-safe.
 */
public final class ListenerConfigStore {

    /** A stored configuration and its revision. */
    public record Stored(Map<String, String> config, long revision) {

        /** Copies. */
        public Stored {
            config = Map.copyOf(config);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<TreeMap<String, String>> CONFIG = new TypeReference<>() {
    };
    /**
     * KEYS: configs hash, control revision; ARGV: name, config JSON, nx|set. Returns 0 (exists, nx), 1 (created),
     * 2 (replaced).
     */
    private static final LuaScript WRITE = LuaScript.of("""
            local t = redis.call('TIME')
            local rev = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local prev = redis.call('HGET', KEYS[1], ARGV[1])
            if prev then
              if ARGV[3] == 'nx' then return 0 end
              local ok, d = pcall(cjson.decode, prev)
              if ok and type(d) == 'table' and type(d.revision) == 'number' and d.revision >= rev then
                rev = d.revision + 1
              end
            end
            redis.call('HSET', KEYS[1], ARGV[1],
              '{"revision":' .. string.format('%.0f', rev) .. ',"config":' .. ARGV[2] .. '}')
            redis.call('INCR', KEYS[2])
            if prev then return 2 end
            return 1
            """);

    private final RedisClient redis;
    private final ControlKeys keys;

    /** A store over {@code redis} for the cluster of {@code keys}. */
    public ListenerConfigStore(RedisClient redis, ControlKeys keys) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    /** Every stored listener: name to configuration, sorted by name. */
    public Future<Map<String, Map<String, String>>> all() {
        return stored().map(stored -> {
            Map<String, Map<String, String>> out = new TreeMap<>();
            stored.forEach((name, s) -> out.put(name, s.config()));
            return out;
        });
    }

    /** Every stored listener with its revision, sorted by name. */
    public Future<Map<String, Stored>> stored() {
        return redis.send(Request.cmd(Command.HGETALL).arg(keys.listenerConfigs())).map(reply -> {
            Map<String, Stored> out = new TreeMap<>();
            RedisReplies.toStringMap(reply).forEach((name, json) -> out.put(name, parse(name, json)));
            return out;
        });
    }

    /** The stored configuration of {@code name}. */
    public Future<Optional<Map<String, String>>> get(String name) {
        return stored(name).map(s -> s.map(Stored::config));
    }

    /** The stored configuration of {@code name} with its revision. */
    public Future<Optional<Stored>> stored(String name) {
        return redis.send(Request.cmd(Command.HGET).arg(keys.listenerConfigs()).arg(name))
                .map(reply -> Optional.ofNullable(reply).map(r -> parse(name, r.toString())));
    }

    /** Stores {@code config} under {@code name} unless one exists; true when stored. */
    public Future<Boolean> create(String name, Map<String, String> config) {
        return write(name, config, "nx").map(r -> r == 1);
    }

    /** Stores or replaces {@code config} under {@code name} (a new revision); true when it was created. */
    public Future<Boolean> put(String name, Map<String, String> config) {
        return write(name, config, "set").map(r -> r == 1);
    }

    /** Deletes {@code name}; true when it existed. */
    public Future<Boolean> delete(String name) {
        return redis.batch(java.util.List.of(
                        Request.cmd(Command.HDEL).arg(keys.listenerConfigs()).arg(name),
                        Request.cmd(Command.INCR).arg(keys.revision())))
                .map(replies -> replies.get(0).toInteger() == 1);
    }

    private Future<Integer> write(String name, Map<String, String> config, String mode) {
        return WRITE.call(redis, List.of(keys.listenerConfigs(), keys.revision()), List.of(name, write(config), mode))
                .map(Response::toInteger);
    }

    private Stored parse(String name, String json) {
        try {
            JsonNode node = JSON.readTree(json);
            if (node != null && node.has("revision") && node.path("config").isObject()) {
                return new Stored(JSON.convertValue(node.get("config"), CONFIG), node.get("revision").asLong());
            }
            return new Stored(JSON.readValue(json, CONFIG), 0);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new IllegalStateException("stored configuration of listener '" + name + "' in "
                    + keys.listenerConfigs() + " is not a JSON object of strings");
        }
    }

    private static String write(Map<String, String> config) {
        try {
            return JSON.writeValueAsString(new TreeMap<>(config));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
