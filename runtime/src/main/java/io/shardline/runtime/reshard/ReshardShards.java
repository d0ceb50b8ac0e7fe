package io.shardline.runtime.reshard;

import io.shardline.producer.routing.ShardRouting;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.store.LuaScript;
import io.shardline.runtime.topology.GroupCreation;
import io.vertx.core.Future;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The leader's Redis steps on one shard during a resharding, each one atomic script in the shard's slot (the shard
 * stream {@code {<stream>:<i>}} and its routing hash {@code {<stream>:<i>}:routing}): observing the routing hash and
 * every group's position, releasing a barrier, creating a group on a new shard, retiring a shard and removing the
 * finished epochs' fields. Flips go through the routing library ({@link ShardRouting#flip}). Thread-safe.
 */
final class ReshardShards {

    /** KEYS: shard, routing. Returns {HGETALL routing, {group, last-delivered-id, oldest pending or ''}...}. */
    private static final LuaScript OBSERVE = LuaScript.of("""
            local groups = {}
            if redis.call('EXISTS', KEYS[1]) == 1 then
              for _, g in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do
                local name, last, pending
                for i = 1, #g, 2 do
                  if g[i] == 'name' then name = g[i + 1]
                  elseif g[i] == 'last-delivered-id' then last = g[i + 1]
                  elseif g[i] == 'pending' then pending = g[i + 1] end
                end
                local oldest = ''
                if pending > 0 then oldest = redis.call('XPENDING', KEYS[1], name)[2] end
                groups[#groups + 1] = name
                groups[#groups + 1] = last
                groups[#groups + 1] = oldest
              end
            end
            return {redis.call('HGETALL', KEYS[2]), groups}
            """);

    /** KEYS: routing; ARGV: group, epoch. Raises released:<group> to epoch (never lowers it). */
    private static final LuaScript RELEASE = LuaScript.of("""
            local f = 'released:' .. ARGV[1]
            if (tonumber(redis.call('HGET', KEYS[1], f)) or 0) < tonumber(ARGV[2]) then
              redis.call('HSET', KEYS[1], f, ARGV[2])
            end
            return 1
            """);

    /**
     * KEYS: shard, routing, then owner and error keys; ARGV: epoch. Removes the shard's keys and leaves the routing
     * hash as a tombstone at the epoch ({@code retired} = {@code epoch}), so a producer still routing with an older
     * layout is refused there, and no group creation brings the key back ({@link GroupCreation}); a later layout that
     * has the shard again flips it past the tombstone.
     */
    private static final LuaScript RETIRE = LuaScript.of("""
            for i = 1, #KEYS do
              redis.call('DEL', KEYS[i])
            end
            redis.call('HSET', KEYS[2], 'epoch', ARGV[1], 'retired', ARGV[1])
            return 1
            """);

    /** KEYS: routing. Removes every cutover:* and released:* field (the change they served completed). */
    private static final LuaScript FINISH = LuaScript.of("""
            local all = redis.call('HGETALL', KEYS[1])
            for i = 1, #all, 2 do
              local f = all[i]
              if string.sub(f, 1, 8) == 'cutover:' or string.sub(f, 1, 9) == 'released:' then
                redis.call('HDEL', KEYS[1], f)
              end
            end
            return 1
            """);

    private final RedisClient redis;
    private final ShardRouting routing;

    ReshardShards(RedisClient redis, ShardRouting routing) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.routing = Objects.requireNonNull(routing, "routing");
    }

    /** One shard as observed. */
    record Observed(Progress.Routing routing, Map<String, Progress.Position> positions) {
    }

    Future<Observed> observe(String stream, int shard) {
        return OBSERVE.call(redis, keys(stream, shard), List.of()).map(reply -> {
            Response hash = reply.get(0);
            long epoch = 1;
            TreeMap<Long, String> cutovers = new TreeMap<>();
            Map<String, Long> released = new HashMap<>();
            for (int i = 0; i + 1 < hash.size(); i += 2) {
                String field = hash.get(i).toString();
                String value = hash.get(i + 1).toString();
                if ("epoch".equals(field)) {
                    epoch = Long.parseLong(value);
                } else if (field.startsWith("cutover:")) {
                    cutovers.put(Long.parseLong(field.substring(8)), value);
                } else if (field.startsWith("released:")) {
                    released.put(field.substring(9), Long.parseLong(value));
                }
            }
            Map<String, Progress.Position> positions = new HashMap<>();
            Response groups = reply.get(1);
            for (int i = 0; i + 2 < groups.size(); i += 3) {
                String oldest = groups.get(i + 2).toString();
                positions.put(groups.get(i).toString(), new Progress.Position(groups.get(i + 1).toString(),
                        oldest.isEmpty() ? null : oldest));
            }
            return new Observed(new Progress.Routing(epoch, cutovers, released), positions);
        });
    }

    Future<Void> flip(String stream, int shard, long epoch) {
        return routing.flip(stream, shard, epoch).mapEmpty();
    }

    Future<Void> release(String stream, int shard, String group, long epoch) {
        return RELEASE.call(redis, List.of(ShardRouting.routingKey(stream, shard)), List.of(group, Long.toString(epoch)))
                .mapEmpty();
    }

    /**
     * Creates the group on a shard of the change unless it is a retired shard's tombstone (a deposed leader's late
     * step after its successor completed; a shard a later layout has again is flipped before this runs).
     */
    Future<Void> createGroup(String stream, int shard, String group) {
        return GroupCreation.createUnlessRetired(redis::send, ShardRouting.shardKey(stream, shard),
                ShardRouting.routingKey(stream, shard), group, "0").mapEmpty();
    }

    Future<Void> retire(String stream, int shard, long epoch, List<String> groups) {
        List<String> keys = new ArrayList<>(keys(stream, shard));
        String key = ShardRouting.shardKey(stream, shard);
        for (String g : groups) {
            keys.add(key + ":owner:" + g);
            keys.add(key + ":errors:" + g);
        }
        return RETIRE.call(redis, keys, List.of(Long.toString(epoch))).mapEmpty();
    }

    Future<Void> finish(String stream, int shard) {
        return FINISH.call(redis, List.of(ShardRouting.routingKey(stream, shard)), List.of()).mapEmpty();
    }

    private static List<String> keys(String stream, int shard) {
        return List.of(ShardRouting.shardKey(stream, shard), ShardRouting.routingKey(stream, shard));
    }
}
