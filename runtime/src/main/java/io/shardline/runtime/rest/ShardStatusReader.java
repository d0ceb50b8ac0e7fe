package io.shardline.runtime.rest;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.rest.entity.ListenerState;
import io.shardline.runtime.rest.entity.ShardStatus;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reads the status of shards from Redis: the owner and owner epoch from the group's owner hash of the
 * shard ({@code {<stream>:<i>}:owner:<group>}, written only by the coordinator side), and the group's lag,
 * pending count and last delivered entry id from {@code XINFO GROUPS}, and how long ago the oldest pending entry was
 * delivered from an extended {@code XPENDING} (its first entry's idle time). A shard whose stream or group does
 * not exist yet has no lag and nothing pending. Thread-safe.
 */
public final class ShardStatusReader {

    private final RedisClient redis;

    /** A reader over {@code redis}. */
    public ShardStatusReader(RedisClient redis) {
        this.redis = Objects.requireNonNull(redis, "redis");
    }

    /** The status of every shard in {@code shards} for consumer group {@code group}, in the given order. */
    public Future<List<ShardStatus>> read(String group, List<ShardId> shards, Set<ShardId> paused) {
        List<Future<ShardStatus>> all = new ArrayList<>(shards.size());
        for (ShardId shard : shards) {
            all.add(read(group, shard, paused.contains(shard)));
        }
        return Future.all(all).map(done -> {
            List<ShardStatus> out = new ArrayList<>(shards.size());
            for (int i = 0; i < shards.size(); i++) {
                out.add(done.resultAt(i));
            }
            return out;
        });
    }

    private Future<ShardStatus> read(String group, ShardId shard, boolean paused) {
        Future<Map<String, String>> owner = redis.send(Request.cmd(Command.HGETALL).arg(shard.ownerKey(group)))
                .map(RedisReplies::toStringMap);
        Future<Map<String, Response>> info = redis.send(Request.cmd(Command.XINFO).arg("GROUPS").arg(shard.key()))
                .map(reply -> findGroup(reply, group))
                .recover(e -> isNoSuchKey(e) ? Future.succeededFuture(Map.of()) : Future.failedFuture(e));
        Future<Long> oldest = redis.send(Request.cmd(Command.XPENDING).arg(shard.key()).arg(group).arg("-").arg("+")
                        .arg(1))
                .map(ShardStatusReader::idleOfFirst)
                .recover(e -> Future.succeededFuture(null));
        return Future.all(owner, info, oldest).map(done -> toStatus(shard, paused, owner.result(), info.result(),
                oldest.result()));
    }

    /** The idle time of the first entry of an extended {@code XPENDING} answer, {@code null} when none. */
    private static Long idleOfFirst(Response reply) {
        if (reply == null || reply.size() == 0) {
            return null;
        }
        Response first = reply.get(0);
        return first == null || first.size() < 3 ? null : first.get(2).toLong();
    }

    private static ShardStatus toStatus(ShardId shard, boolean paused, Map<String, String> owner,
                                        Map<String, Response> group, Long oldestPendingMs) {
        String ownerId = owner.get("owner");
        if (ownerId != null && ownerId.isEmpty()) {
            ownerId = null;
        }
        long epoch = owner.containsKey("epoch") ? Long.parseLong(owner.get("epoch")) : -1;
        ListenerState state = paused ? ListenerState.PAUSED
                : ownerId != null ? ListenerState.RUNNING : ListenerState.UNASSIGNED;
        Response lag = group.get("lag");
        Response pending = group.get("pending");
        Response last = group.get("last-delivered-id");
        String lastId = last == null || "0-0".equals(last.toString()) ? null : last.toString();
        return new ShardStatus(shard.stream(), shard.index(), ownerId, ownerId == null ? -1 : epoch, state,
                lag == null ? null : lag.toLong(), pending == null ? 0 : pending.toLong(), lastId, oldestPendingMs);
    }

    private static Map<String, Response> findGroup(Response reply, String group) {
        if (reply != null) {
            for (Response entry : reply) {
                Map<String, Response> fields = RedisReplies.toMap(entry);
                Response name = fields.get("name");
                if (name != null && group.equals(name.toString())) {
                    return fields;
                }
            }
        }
        return Map.of();
    }

    private static boolean isNoSuchKey(Throwable e) {
        String message = String.valueOf(e.getMessage());
        return message.contains("no such key");
    }
}
