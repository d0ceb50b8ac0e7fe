package io.shardline.runtime.reshard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisReplies;
import io.shardline.runtime.store.LuaScript;
import io.shardline.runtime.topology.StreamTopology;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A stream's resharding state in its topology record (docs/protocol.md, "The topology record"): the machine is
 * rebuilt from the fields {@code state}, {@code routing_epoch}, {@code shards}, {@code layouts} and {@code step},
 * and written back in one atomic step that applies only while {@code routing_epoch}, {@code state} and {@code step}
 * are the ones the writer read ({@link Expected}: so an operator's change and the leader's step never overwrite each
 * other), appending a history entry when asked. Thread-safe.
 */
public final class ReshardStore {

    /** The value of {@code step} while a change is completing. */
    public static final String COMPLETING = "COMPLETING";

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * KEYS: topology; ARGV: expected routing_epoch, expected step ('' or COMPLETING), expected state, history reason
     * ('' for none), then field/value pairs (value '' removes the field). Returns 1 written, 0 the epoch, the state or
     * the step moved, -1 no topology. A change keeps its routing epoch while it completes: its step goes '' ->
     * COMPLETING (the leader retires the left-out shards) and then back to '' with the state STABLE. Without the step a
     * rollback read before the completion began would be written during it; without the state, after it (the same
     * epoch and step as when it was read), bringing back shards whose keys were removed.
     */
    private static final LuaScript WRITE = LuaScript.of("""
            local cur = redis.call('HGET', KEYS[1], 'routing_epoch')
            if not cur then return -1 end
            if cur ~= ARGV[1] then return 0 end
            if (redis.call('HGET', KEYS[1], 'step') or '') ~= ARGV[2] then return 0 end
            if (redis.call('HGET', KEYS[1], 'state') or 'STABLE') ~= ARGV[3] then return 0 end
            for i = 5, #ARGV, 2 do
              if ARGV[i + 1] == '' then redis.call('HDEL', KEYS[1], ARGV[i])
              else redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
            end
            if ARGV[4] ~= '' then
              local t = redis.call('TIME')
              local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
              local h = cjson.decode(redis.call('HGET', KEYS[1], 'history') or '[]')
              table.insert(h, {routing_epoch = tonumber(redis.call('HGET', KEYS[1], 'routing_epoch')),
                shards = tonumber(redis.call('HGET', KEYS[1], 'shards')), state = redis.call('HGET', KEYS[1], 'state'),
                at_ms = now, reason = ARGV[4]})
              while #h > 10 do table.remove(h, 1) end
              redis.call('HSET', KEYS[1], 'history', cjson.encode(h))
            end
            return 1
            """);

    private final RedisClient redis;

    /** Over {@code redis}. */
    public ReshardStore(RedisClient redis) {
        this.redis = Objects.requireNonNull(redis, "redis");
    }

    /** The machine of {@code stream}, empty when it has no topology or one in a state this version does not know. */
    public Future<Optional<Reshard>> read(String stream) {
        return redis.send(Request.cmd(Command.HGETALL).arg(StreamTopology.key(stream)))
                .map(reply -> machine(stream, RedisReplies.toStringMap(reply)));
    }

    /** The machine stored in a topology's fields. */
    static Optional<Reshard> machine(String stream, Map<String, String> fields) {
        if (!fields.containsKey("shards") || !fields.containsKey("routing_epoch")) {
            return Optional.empty();
        }
        ReshardState state;
        try {
            state = ReshardState.valueOf(fields.getOrDefault("state", "STABLE"));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        long epoch = Long.parseLong(fields.get("routing_epoch"));
        int shards = Integer.parseInt(fields.get("shards"));
        SortedMap<Long, Integer> layouts = new TreeMap<>();
        String stored = fields.get("layouts");
        if (state != ReshardState.STABLE && stored != null) {
            try {
                JSON.readValue(stored, new TypeReference<Map<String, Integer>>() {
                }).forEach((e, n) -> layouts.put(Long.parseLong(e), n));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("the topology of stream '" + stream + "' has unreadable layouts '"
                        + stored + "': " + e.getOriginalMessage(), e);
            }
        } else {
            layouts.put(epoch, shards);
        }
        return Optional.of(Reshard.restore(stream, state, layouts, COMPLETING.equals(fields.get("step"))));
    }

    /**
     * What a writer read of the topology and expects to find when it writes: the routing epoch, the state and whether
     * the change was completing (the step).
     */
    public record Expected(long routingEpoch, ReshardState state, boolean completing) {

        /** What {@code machine} holds now: take it before the machine is changed. */
        public static Expected of(Reshard machine) {
            return new Expected(machine.epoch(), machine.state(), machine.completing());
        }

        /** The same, with the step the writer's own earlier write left ({@code COMPLETING} or not). */
        public Expected withCompleting(boolean now) {
            return new Expected(routingEpoch, state, now);
        }
    }

    /**
     * Writes {@code r} as the stream's topology if its routing epoch, state and step are still the {@code expected}
     * ones.
     *
     * @param reason the history entry's reason, or null for none
     * @return 1 written, 0 the routing epoch, the state or the step moved meanwhile, -1 the stream has no topology
     */
    public Future<Integer> write(Reshard r, Expected expected, String reason, Map<String, String> more) {
        Map<String, String> fields = new LinkedHashMap<>();
        boolean stable = r.state() == ReshardState.STABLE;
        fields.put("state", r.state().name());
        fields.put("shards", Integer.toString(r.shards()));
        fields.put("routing_epoch", Long.toString(r.epoch()));
        fields.put("target_shards", stable ? "" : Integer.toString(r.shards()));
        fields.put("from_shards", stable ? "" : Integer.toString(r.fromShards()));
        fields.put("layouts", stable ? "" : json(r.layouts()));
        fields.put("step", r.completing() ? COMPLETING : "");
        if (stable) {
            fields.put("cutover", "");
            fields.put("progress", "");
        }
        fields.putAll(more);
        List<String> args = new ArrayList<>(List.of(Long.toString(expected.routingEpoch()),
                expected.completing() ? COMPLETING : "", expected.state().name(), reason == null ? "" : reason));
        fields.forEach((k, v) -> {
            args.add(k);
            args.add(v);
        });
        return WRITE.call(redis, List.of(StreamTopology.key(r.stream())), args).map(reply -> reply.toInteger());
    }

    /** {@code value} as JSON text. */
    static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
