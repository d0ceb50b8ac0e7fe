package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.redis.Chunked;
import io.shardline.runtime.redis.MonitoringReads;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisReplies;
import io.shardline.runtime.rest.entity.ListenerState;
import io.shardline.runtime.rest.entity.ShardStatus;
import io.shardline.runtime.store.LuaScript;
import io.vertx.core.Future;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reads the status of shards from Redis in one script call per batch of shards ({@code shard_status.lua}, a read-only
 * script): the owner and owner epoch from the group's owner hash of the shard ({@code {<stream>:<i>}:owner:<group>},
 * written only by the coordinator side), the group's lag, pending count and last delivered entry id from
 * {@code XINFO GROUPS}, how long ago the oldest pending entry was delivered from an extended {@code XPENDING} (its
 * first entry's idle time, only for shards with pending entries), and from the shard's routing hash
 * ({@code {<stream>:<i>}:routing}, docs/protocol.md section 8b) whether the group's reads wait at a resharding cutover
 * and since when. A shard whose stream or group does not exist yet has no lag and nothing pending.
 *
 * <p>One call reads {@link #SHARDS_PER_CALL} shards on a single Redis, one shard on a Redis Cluster (a script's keys
 * must share a hash slot, and a shard's keys do): so a worker sampling its idle shards every few seconds sends one
 * command per batch instead of three or four per shard (docs/benchmarks.md, "Cost curve"). The calls go through
 * {@link RedisClient#monitoring()}, never the pool of the coordinator's and the consumers' commands, in chunks of
 * {@link #CHUNK} shards, one chunk after the other: a listener of any size is read at the pace
 * {@code redis.monitoring.in.flight} allows, with at most one chunk's calls waiting. Thread-safe.
 */
public final class ShardStatusReader {

    /** Shards read at once (one chunk of calls). */
    static final int CHUNK = 256;

    /** Shards one script call reads on a single Redis. */
    static final int SHARDS_PER_CALL = 64;

    private static final LuaScript SCRIPT = LuaScript.ofResource(ShardStatusReader.class, "shard_status.lua");

    private final RedisClient redis;

    /** A reader over {@code redis}. */
    public ShardStatusReader(RedisClient redis) {
        this.redis = Objects.requireNonNull(redis, "redis");
    }

    /** The status of every shard in {@code shards} for consumer group {@code group}, in the given order. */
    public Future<List<ShardStatus>> read(String group, List<ShardId> shards, Set<ShardId> paused) {
        int perCall = redis.config().cluster() ? 1 : SHARDS_PER_CALL;
        List<List<ShardId>> calls = new ArrayList<>();
        for (int from = 0; from < shards.size(); from += perCall) {
            calls.add(shards.subList(from, Math.min(shards.size(), from + perCall)));
        }
        return Chunked.map(calls, Math.max(1, CHUNK / perCall), call -> readCall(group, call, paused))
                .map(read -> read.stream().flatMap(List::stream).toList());
    }

    private Future<List<ShardStatus>> readCall(String group, List<ShardId> shards, Set<ShardId> paused) {
        List<String> keys = new ArrayList<>(3 * shards.size());
        for (ShardId shard : shards) {
            keys.add(shard.key());
            keys.add(shard.ownerKey(group));
            keys.add(shard.key() + ":routing");
        }
        MonitoringReads reads = redis.monitoring();
        return SCRIPT.call(reads::send, keys, List.of(group)).map(reply -> {
            List<ShardStatus> out = new ArrayList<>(shards.size());
            for (int i = 0; i < shards.size(); i++) {
                ShardId shard = shards.get(i);
                Response r = reply.get(i);
                out.add(withCutover(toStatus(shard, paused.contains(shard), r), RedisReplies.toStringMap(r.get(7)),
                        group));
            }
            return out;
        }).recover(e -> Future.failedFuture(unreadable(group, shards, e)));
    }

    /**
     * Redis refused or failed a status read (a missing ACL permission, a timeout): 503 naming the shards, the group
     * and Redis's answer, instead of an internal error.
     */
    private static ControlPlaneException unreadable(String group, List<ShardId> shards, Throwable e) {
        ShardId first = shards.get(0);
        ShardId last = shards.get(shards.size() - 1);
        String which = shards.size() == 1 ? "shard " + first : "shards " + first + " to " + last;
        return new ControlPlaneException(503, "cannot read the status of " + which + " of group '" + group
                + "' from Redis (keys " + first.key() + ", " + first.ownerKey(group) + (shards.size() == 1 ? "" : ", ...")
                + "): " + e.getMessage() + "; check the worker's Redis user (bin/shardline redis-acl) and that Redis "
                + "answers");
    }

    /**
     * One shard's part of the script's answer: {owner, epoch, group found, lag, pending, last delivered id, oldest
     * pending idle ms, routing fields}.
     */
    private static ShardStatus toStatus(ShardId shard, boolean paused, Response r) {
        String ownerId = text(r.get(0));
        long epoch = r.get(1) == null ? -1 : Long.parseLong(r.get(1).toString());
        ListenerState state = paused ? ListenerState.PAUSED
                : ownerId != null ? ListenerState.RUNNING : ListenerState.UNASSIGNED;
        boolean found = r.get(2).toInteger() == 1;
        Long lag = found && r.get(3) != null ? r.get(3).toLong() : null;
        String lastId = text(r.get(5));
        return new ShardStatus(shard.stream(), shard.index(), ownerId, ownerId == null ? -1 : epoch, state, lag,
                r.get(4).toLong(), "0-0".equals(lastId) ? null : lastId, r.get(6) == null ? null : r.get(6).toLong());
    }

    private static String text(Response response) {
        String value = response == null ? null : response.toString();
        return value == null || value.isEmpty() ? null : value;
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
}
