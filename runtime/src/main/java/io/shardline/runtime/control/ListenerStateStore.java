package io.shardline.runtime.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shardline.api.handler.ShardId;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisReplies;
import io.shardline.runtime.rest.entity.TargetState;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The persisted target states of listeners and shards, in Redis (keys in {@link ControlKeys}), so that a
 * pause or stop written on any worker applies on every worker and survives restarts of any or all of
 * them (Connect writes {@code target-state-<c>} records to its config topic the same way: any worker
 * may write them). Workers read them with {@link #snapshot()} once per heartbeat interval.
 *
 * <p>Every write also increments the control revision. Thread-safe.
 */
public final class ListenerStateStore {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerStateStore.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PAUSED = "PAUSED";

    private final RedisClient redis;
    private final ControlKeys keys;

    /** A store over {@code redis} for the cluster of {@code keys}. */
    public ListenerStateStore(RedisClient redis, ControlKeys keys) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    /** The target state of {@code listener} ({@link TargetState#STARTED} when none is stored). */
    public Future<TargetState> targetState(String listener) {
        return redis.send(Request.cmd(Command.HGET).arg(keys.targetStates()).arg(listener))
                .map(r -> TargetState.fromStored(r == null ? null : r.toString()));
    }

    /** Stores the target state of {@code listener}. */
    public Future<Void> setTargetState(String listener, TargetState state) {
        if (state == TargetState.UNKNOWN) {
            return Future.failedFuture(new IllegalArgumentException("cannot store target state UNKNOWN"));
        }
        LOG.info("Listener {}: target state {}", listener, state);
        return redis.batch(List.of(
                        Request.cmd(Command.HSET).arg(keys.targetStates()).arg(listener).arg(state.name()),
                        Request.cmd(Command.INCR).arg(keys.revision())))
                .mapEmpty();
    }

    /** Marks {@code shard} of {@code listener} paused or not paused. */
    public Future<Void> setShardPaused(String listener, ShardId shard, boolean paused) {
        String field = shardField(listener, shard);
        LOG.info("Listener {}: shard {}:{} {}", listener, shard.stream(), shard.index(), paused ? "paused" : "resumed");
        Request change = paused
                ? Request.cmd(Command.HSET).arg(keys.pausedShards()).arg(field).arg(PAUSED)
                : Request.cmd(Command.HDEL).arg(keys.pausedShards()).arg(field);
        return redis.batch(List.of(change, Request.cmd(Command.INCR).arg(keys.revision()))).mapEmpty();
    }

    /** Removes every stored state of {@code listener} (when it is deleted). */
    public Future<Void> forget(String listener) {
        return snapshot().compose(states -> {
            Request del = Request.cmd(Command.HDEL).arg(keys.pausedShards());
            Set<ShardId> shards = states.pausedShards(listener);
            shards.forEach(s -> del.arg(shardField(listener, s)));
            List<Request> requests = new java.util.ArrayList<>();
            requests.add(Request.cmd(Command.HDEL).arg(keys.targetStates()).arg(listener));
            if (!shards.isEmpty()) {
                requests.add(del);
            }
            requests.add(Request.cmd(Command.INCR).arg(keys.revision()));
            return redis.batch(requests).mapEmpty();
        });
    }

    /** The control revision: incremented by every write of a listener definition or target state (0 before any). */
    public Future<Long> revision() {
        return redis.send(Request.cmd(Command.GET).arg(keys.revision())).map(r -> r == null ? 0L : r.toLong());
    }

        /** Every stored target state and paused shard, with the revision. */
    public Future<TargetStates> snapshot() {
        return redis.batch(List.of(
                        Request.cmd(Command.GET).arg(keys.revision()),
                        Request.cmd(Command.HGETALL).arg(keys.targetStates()),
                        Request.cmd(Command.HGETALL).arg(keys.pausedShards())))
                .map(this::toStates);
    }

    private TargetStates toStates(List<Response> replies) {
        long revision = replies.get(0) == null ? 0 : replies.get(0).toLong();
        Map<String, TargetState> listeners = new HashMap<>();
        RedisReplies.toStringMap(replies.get(1)).forEach((k, v) -> listeners.put(k, TargetState.fromStored(v)));
        Map<String, Set<ShardId>> paused = new HashMap<>();
        for (String field : RedisReplies.toStringMap(replies.get(2)).keySet()) {
            try {
                List<?> parts = JSON.readValue(field, List.class);
                ShardId shard = new ShardId((String) parts.get(1), ((Number) parts.get(2)).intValue());
                paused.computeIfAbsent((String) parts.get(0), k -> new HashSet<>()).add(shard);
            } catch (JsonProcessingException | RuntimeException e) {
                LOG.warn("Ignoring malformed paused-shard field {} in {}", field, keys.pausedShards());
            }
        }
        return new TargetStates(revision, listeners, paused);
    }

    private static String shardField(String listener, ShardId shard) {
        try {
            return JSON.writeValueAsString(List.of(listener, shard.stream(), shard.index()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
