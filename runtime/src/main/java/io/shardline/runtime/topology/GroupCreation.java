package io.shardline.runtime.topology;

import io.shardline.runtime.redis.RedisErrorKind;
import io.shardline.runtime.store.LuaScript;
import io.vertx.core.Future;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.function.Function;

/**
 * The one way a consumer group is created on a shard ({@code XGROUP CREATE ... MKSTREAM}): by a listener at start, by
 * a member that finds its group gone ({@code NOGROUP}), by the leader on the new shards of a resharding, by an offset
 * reset on a shard the group is not on yet ({@link #LUA_FUNCTION} inside its script). One atomic
 * script on the shard's slot that creates nothing while the shard's routing hash is a retired shard's tombstone
 * ({@code retired} equal to its {@code epoch}: a resharding removed the shard and no later layout flipped it back;
 * docs/protocol.md section 8b). So no writer, however stale its shard count (a listener started with the count before
 * a change that completed meanwhile, a deposed leader, a member still holding a retired shard), brings a retired key
 * back as an empty stream nobody writes or reads. Stateless and thread-safe.
 */
public final class GroupCreation {

    /**
     * The guard as Lua functions for a script that creates a group among other steps (an offset reset):
     * {@code retired(routing)} answers whether the routing hash is a tombstone;
     * {@code create_unless_retired(shard, routing, group, start id)} answers 0 (nothing created) on a tombstone, else
     * runs {@code XGROUP CREATE ... MKSTREAM} and answers 1; a {@code BUSYGROUP} reply (the group exists) is 1 too.
     * The routing hash must be one of the script's keys (the shard's slot).
     */
    public static final String LUA_FUNCTION = """
            local function retired(routing)
              local r = redis.call('HMGET', routing, 'retired', 'epoch')
              return r[1] and r[1] == r[2]
            end
            local function create_unless_retired(shard, routing, group, start)
              if retired(routing) then return 0 end
              local ok = redis.pcall('XGROUP', 'CREATE', shard, group, start, 'MKSTREAM')
              if type(ok) == 'table' and ok.err and string.sub(ok.err, 1, 9) ~= 'BUSYGROUP' then return ok end
              return 1
            end
            """;

    /** KEYS: shard, routing hash; ARGV: group, start id. {@link #LUA_FUNCTION}'s answer. */
    private static final LuaScript CREATE_UNLESS_RETIRED = LuaScript.of(LUA_FUNCTION + """
            return create_unless_retired(KEYS[1], KEYS[2], ARGV[1], ARGV[2])
            """);

    private GroupCreation() {
    }

    /**
     * Creates {@code group} at {@code startId} ({@code 0} or {@code $}) on the shard stream {@code shardKey} (and the
     * stream when missing) unless its routing hash {@code routingKey} (same slot) is a tombstone.
     *
     * @param send sends one command (the caller's pooled connection)
     * @return true when the group exists now, false when the shard is retired and nothing was created
     */
    public static Future<Boolean> createUnlessRetired(Function<Request, Future<Response>> send, String shardKey,
                                                      String routingKey, String group, String startId) {
        return CREATE_UNLESS_RETIRED.call(send, List.of(shardKey, routingKey), List.of(group, startId))
                .map(reply -> reply.toInteger() == 1)
                .recover(e -> RedisErrorKind.classify(e) == RedisErrorKind.BUSY_GROUP ? Future.succeededFuture(true)
                        : Future.failedFuture(e));
    }
}
