package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.redis.Chunked;
import io.shardline.runtime.redis.MonitoringReads;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisReplies;
import io.shardline.runtime.rest.entity.ListenerState;
import io.shardline.runtime.rest.entity.ShardStatus;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reads the status of shards from Redis: the owner and owner epoch from the group's owner hash of the
 * shard ({@code {<stream>:<i>}:owner:<group>}, written only by the coordinator side), and the group's lag,
 * pending count and last delivered entry id from {@code XINFO GROUPS}, and how long ago the oldest pending entry was
 * delivered from an extended {@code XPENDING} (its first entry's idle time), and from the shard's routing hash
 * ({@code {<stream>:<i>}:routing}, docs/protocol.md section 8b) whether the group's reads wait at a resharding cutover
 * and since when. A shard whose stream or group does not exist yet has no lag and nothing pending.
 *
 * <p>The reads go through {@link RedisClient#monitoring()}, never the pool of the coordinator's and the consumers'
 * commands, in chunks of {@link #CHUNK} shards, one chunk after the other: a listener of any size is read at the
 * pace {@code redis.monitoring.in.flight} allows, with at most one chunk's commands waiting. {@code XPENDING} is
 * sent only for shards with pending entries. Thread-safe.
 */
public final class ShardStatusReader {

    /** Shards read at once by one read (three or four commands each). */
    static final int CHUNK = 256;

    private final RedisClient redis;

    /** A reader over {@code redis}. */
    public ShardStatusReader(RedisClient redis) {
        this.redis = Objects.requireNonNull(redis, "redis");
    }

    /** The status of every shard in {@code shards} for consumer group {@code group}, in the given order. */
    public Future<List<ShardStatus>> read(String group, List<ShardId> shards, Set<ShardId> paused) {
        return Chunked.map(shards, CHUNK, shard -> read(group, shard, paused.contains(shard)));
    }

    private Future<ShardStatus> read(String group, ShardId shard, boolean paused) {
        MonitoringReads reads = redis.monitoring();
        Future<Map<String, String>> owner = reads.send(Request.cmd(Command.HGETALL).arg(shard.ownerKey(group)))
                .map(RedisReplies::toStringMap);
        Future<Map<String, Response>> info = reads.send(Request.cmd(Command.XINFO).arg("GROUPS").arg(shard.key()))
                .map(reply -> findGroup(reply, group))
                .recover(e -> isNoSuchKey(e) ? Future.succeededFuture(Map.of()) : Future.failedFuture(e));
        Future<Map<String, String>> routing = reads.send(Request.cmd(Command.HGETALL).arg(shard.key() + ":routing"))
                .map(RedisReplies::toStringMap);
        Future<Long> oldest = info.compose(fields -> hasPending(fields)
                ? reads.send(Request.cmd(Command.XPENDING).arg(shard.key()).arg(group).arg("-").arg("+").arg(1))
                        .map(ShardStatusReader::idleOfFirst).recover(e -> Future.succeededFuture(null))
                : Future.succeededFuture(null));
        return Future.all(owner, info, oldest, routing).map(done -> withCutover(toStatus(shard, paused, owner.result(), info.result(),
                oldest.result()), routing.result(), group)).recover(e -> Future.failedFuture(unreadable(group, shard, e)));
    }

    private static boolean hasPending(Map<String, Response> group) {
        Response pending = group.get("pending");
        return pending != null && pending.toLong() > 0;
    }

    /**
     * Redis refused or failed a status read (a missing ACL permission, a timeout): 503 naming the shard, the group
     * and Redis's answer, instead of an internal error.
     */
    private static ControlPlaneException unreadable(String group, ShardId shard, Throwable e) {
        return new ControlPlaneException(503, "cannot read the status of shard " + shard + " of group '" + group
                + "' from Redis (keys " + shard.key() + ", " + shard.ownerKey(group) + "): " + e.getMessage()
                + "; check the worker's Redis user (bin/shardline redis-acl) and that Redis answers");
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

    /**
     * {@code status} with the cutover its group's reads wait at: the routing hash's {@code waiting:<group>} field
     * ({@code <E>:<since ms>}, written by the read that found nothing left at or below the cutover) when {@code E} is
     * still the smallest epoch with a cutover above {@code released:<group>}; else {@code status} as it is.
     */
    static ShardStatus withCutover(ShardStatus status, Map<String, String> routing, String group) {
        String waiting = routing.get("waiting:" + group);
        int colon = waiting == null ? -1 : waiting.indexOf(':');
        if (colon < 0) {
            return status;
        }
        long released = number(routing.get("released:" + group));
        long smallest = routing.keySet().stream().filter(k -> k.startsWith("cutover:"))
                .mapToLong(k -> number(k.substring("cutover:".length()))).filter(e -> e > released).min().orElse(0);
        long epoch = number(waiting.substring(0, colon));
        return epoch > 0 && epoch == smallest ? status.withCutover(epoch, number(waiting.substring(colon + 1))) : status;
    }

    private static long number(String s) {
        try {
            return s == null ? 0 : Long.parseLong(s);
        } catch (NumberFormatException e) {
            return 0;
        }
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
