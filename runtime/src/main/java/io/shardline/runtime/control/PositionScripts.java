package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.shard.Fence;
import io.shardline.runtime.store.LuaScript;
import io.shardline.runtime.topology.GroupCreation;
import io.vertx.core.Future;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.Objects;

/**
 * The Redis side of a group's positions on one shard, each one Lua script on the shard's key so that it is atomic
 * (and, on a Redis Cluster, runs in the shard's slot): {@link #read} (last delivered id, lag, pending count, oldest
 * pending entry, the server's time) and {@link #move} (resolve the position, drop every pending entry of the group
 * with {@code XACK}, then {@code XGROUP SETID}; or {@code XGROUP CREATE} through {@link GroupCreation}'s guard when the
 * group does not exist on the shard yet, refused on a retired shard). Thread-safe.
 */
final class PositionScripts {

    private static final String FIELD = """
            local function field(flat, name)
              for i = 1, #flat, 2 do
                if flat[i] == name then return flat[i + 1] end
              end
              return nil
            end
            local function group_info(key, group)
              if redis.call('EXISTS', key) == 0 then return nil end
              for _, g in ipairs(redis.call('XINFO', 'GROUPS', key)) do
                if field(g, 'name') == group then return g end
              end
              return nil
            end
            local function now_ms()
              local t = redis.call('TIME')
              return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            end
            """;

    /** KEYS: shard; ARGV: group -> {found(0|1), last, lag(-1: unknown), pending, oldestPendingId, nowMs}. */
    private static final LuaScript READ = LuaScript.of(FIELD + """
            local g = group_info(KEYS[1], ARGV[1])
            local now = string.format('%.0f', now_ms())
            if not g then return {0, '', -1, 0, '', now} end
            local lag = field(g, 'lag')
            if not lag then lag = -1 end
            local summary = redis.call('XPENDING', KEYS[1], ARGV[1])
            local oldest = summary[2]
            if not oldest then oldest = '' end
            return {1, field(g, 'last-delivered-id'), lag, summary[1], oldest, now}
            """);

    /**
     * KEYS: shard, its routing hash; ARGV: group kind(EARLIEST|LATEST|ID|TIME|AGO) value apply(1|0)
     * -> {oldId ('' when the group did not exist), newId, pendingDropped, retired(1|0)}; a group not on the shard is
     * created through {@link GroupCreation}'s guard, so nothing is created on a retired shard (retired 1).
     */
    private static final LuaScript MOVE = LuaScript.of(FIELD + GroupCreation.LUA_FUNCTION + """
            local key, group, kind, value = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
            local exists = redis.call('EXISTS', key) == 1
            local g = group_info(key, group)
            if not g and retired(KEYS[2]) then return {'', '', 0, 1} end
            local old = ''
            if g then old = field(g, 'last-delivered-id') end
            local new = '0-0'
            if kind == 'LATEST' then
              if exists then new = field(redis.call('XINFO', 'STREAM', key), 'last-generated-id') end
            elseif kind == 'ID' then
              new = value
            elseif kind == 'TIME' or kind == 'AGO' then
              local ms = tonumber(value)
              if kind == 'AGO' then ms = now_ms() - ms end
              if exists and ms > 0 then
                local before = redis.call('XREVRANGE', key, '(' .. string.format('%.0f', ms) .. '-0', '-', 'COUNT', 1)
                if #before > 0 then new = before[1][1] end
              end
            end
            local pending = 0
            if g then pending = redis.call('XPENDING', key, group)[1] end
            if ARGV[4] ~= '1' then return {old, new, pending, 0} end
            if not g then
              local created = create_unless_retired(key, KEYS[2], group, new)
              if type(created) == 'table' then return created end
              return {old, new, 0, 1 - created}
            end
            while true do
              local p = redis.call('XPENDING', key, group, '-', '+', 1000)
              if #p == 0 then break end
              local ids = {}
              for i = 1, #p do ids[i] = p[i][1] end
              redis.call('XACK', key, group, unpack(ids))
            end
            redis.call('XGROUP', 'SETID', key, group, new)
            return {old, new, pending, 0}
            """);

    /** What {@link #read} found. {@code lag} is -1 when Redis cannot tell; ids are empty when there are none. */
    record Read(boolean found, String lastDeliveredId, long lag, long pending, String oldestPendingId, long nowMs) {
    }

    /** What {@link #move} did (or would do). {@code oldId} is empty when the group did not exist on the shard. */
    record Moved(String oldId, String newId, long pendingDropped) {
    }

    private final RedisClient redis;

    PositionScripts(RedisClient redis) {
        this.redis = Objects.requireNonNull(redis, "redis");
    }

    Future<Read> read(String group, ShardId shard) {
        return READ.call(redis, List.of(shard.key()), List.of(group)).map(r -> new Read(r.get(0).toInteger() == 1,
                r.get(1).toString(), r.get(2).toLong(), r.get(3).toLong(), r.get(4).toString(), Long.parseLong(r.get(5).toString())));
    }

    /**
     * Moves (or with {@code apply} false, computes the move of) {@code group}'s position on {@code shard}.
     *
     * @throws ControlPlaneException (as a failed future) 409 when the group is not on the shard and the shard was
     *     retired by a resharding: a group created there would bring back a key nobody writes or reads
     */
    Future<Moved> move(String group, ShardId shard, ShardPosition position, boolean apply) {
        return MOVE.call(redis, List.of(shard.key(), Fence.routingKey(shard)), List.of(group, position.kind().name(),
                position.value(), apply ? "1" : "0")).compose(r -> r.get(3).toInteger() == 1
                ? Future.failedFuture(ControlPlaneException.conflict("shard " + shard.stream() + ":" + shard.index()
                + " was retired by a resharding of stream '" + shard.stream() + "', and group '" + group + "' is not "
                + "on it: no position there to move (creating the group would bring the key back). See the stream's "
                + "shard count with GET /streams/" + shard.stream() + " and set the listener's streams= to it"))
                : Future.succeededFuture(moved(r)));
    }

    private static Moved moved(Response r) {
        return new Moved(r.get(0).toString(), r.get(1).toString(), r.get(2).toLong());
    }
}
