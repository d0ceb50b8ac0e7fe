package io.shardline.runtime.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shardline.runtime.redis.RedisClient;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The configurations of listeners created over REST, stored in Redis (hash {@link ControlKeys#listenerConfigs()},
 * one JSON object of raw strings per listener, placeholders unresolved) so that every worker runs them,
 * like listeners from files. Thread-safe.
 */
public final class ListenerConfigStore {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<TreeMap<String, String>> CONFIG = new TypeReference<>() {
    };

    private final RedisClient redis;
    private final ControlKeys keys;

    /** A store over {@code redis} for the cluster of {@code keys}. */
    public ListenerConfigStore(RedisClient redis, ControlKeys keys) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    /** Every stored listener: name to configuration, sorted by name. */
    public Future<Map<String, Map<String, String>>> all() {
        return redis.send(Request.cmd(Command.HGETALL).arg(keys.listenerConfigs())).map(reply -> {
            Map<String, Map<String, String>> out = new TreeMap<>();
            RedisReplies.toStringMap(reply).forEach((name, json) -> out.put(name, parse(name, json)));
            return out;
        });
    }

    /** The stored configuration of {@code name}. */
    public Future<Optional<Map<String, String>>> get(String name) {
        return redis.send(Request.cmd(Command.HGET).arg(keys.listenerConfigs()).arg(name))
                .map(reply -> Optional.ofNullable(reply).map(r -> parse(name, r.toString())));
    }

    /** Stores {@code config} under {@code name} unless one exists; true when stored. */
    public Future<Boolean> create(String name, Map<String, String> config) {
        return redis.batch(java.util.List.of(
                        Request.cmd(Command.HSETNX).arg(keys.listenerConfigs()).arg(name).arg(write(config)),
                        Request.cmd(Command.INCR).arg(keys.revision())))
                .map(replies -> replies.get(0).toInteger() == 1);
    }

    /** Stores or replaces {@code config} under {@code name}; true when it was created. */
    public Future<Boolean> put(String name, Map<String, String> config) {
        return redis.batch(java.util.List.of(
                        Request.cmd(Command.HSET).arg(keys.listenerConfigs()).arg(name).arg(write(config)),
                        Request.cmd(Command.INCR).arg(keys.revision())))
                .map(replies -> replies.get(0).toInteger() == 1);
    }

    /** Deletes {@code name}; true when it existed. */
    public Future<Boolean> delete(String name) {
        return redis.batch(java.util.List.of(
                        Request.cmd(Command.HDEL).arg(keys.listenerConfigs()).arg(name),
                        Request.cmd(Command.INCR).arg(keys.revision())))
                .map(replies -> replies.get(0).toInteger() == 1);
    }

    private Map<String, String> parse(String name, String json) {
        try {
            return JSON.readValue(json, CONFIG);
        } catch (JsonProcessingException e) {
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
