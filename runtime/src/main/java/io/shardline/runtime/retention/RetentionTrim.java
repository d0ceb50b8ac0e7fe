package io.shardline.runtime.retention;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.store.LuaScript;
import io.vertx.core.Future;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.Objects;

/**
 * Trims one shard by its retention in one atomic script ({@code retention.lua}): the retention bound, the oldest
 * entry any consumer group on the key still needs (from {@code XINFO GROUPS} and {@code XPENDING} of every group,
 * Shardline's or not) and the {@code XTRIM MINID} to the smaller of the two are one step, so a group that reads
 * or claims meanwhile cannot lose an entry. A single-key script: works on a Redis Cluster. Thread-safe.
 */
public final class RetentionTrim {

    private static final LuaScript SCRIPT = LuaScript.ofResource(RetentionTrim.class, "retention.lua");

    private final RedisClient redis;

    /** Trims over {@code redis}. */
    public RetentionTrim(RedisClient redis) {
        this.redis = Objects.requireNonNull(redis, "redis");
    }

    /**
     * What one trim did.
     *
     * @param shard the shard
     * @param trimmed the entries removed
     * @param bound the first entry the retention policy keeps, {@code null} when it keeps everything
     * @param trimmedTo the {@code MINID} trimmed to, {@code null} when nothing was to trim
     * @param holder the group that held the trim back, {@code null} when none did
     * @param heldEntries how many entries before the bound that group still needs (at most the trim budget)
     * @param oldestHeld the oldest of those entries, {@code null} when none is held back
     */
    public record Outcome(ShardId shard, long trimmed, String bound, String trimmedTo, String holder, long heldEntries,
                          String oldestHeld) {

        /** Whether a group kept retention from trimming to its bound. */
        public boolean heldBack() {
            return holder != null;
        }

        /** How much older than the bound the oldest held back entry is, in ms of entry time (0 when not held back). */
        public long heldBackMs() {
            return heldBack() && oldestHeld != null ? Math.max(0, millis(bound) - millis(oldestHeld)) : 0;
        }

        private static long millis(String id) {
            return Long.parseLong(id.substring(0, id.indexOf('-')));
        }
    }

    /**
     * Trims {@code shard} by {@code policy} as of {@code nowMs} (wall-clock ms, the entry ids' clock), removing at
     * most {@code budget} entries.
     */
    public Future<Outcome> trim(ShardId shard, RetentionPolicy policy, long nowMs, int budget) {
        long oldest = policy.maxAgeMs() == 0 ? 0 : Math.max(1, nowMs - policy.maxAgeMs());
        return SCRIPT.call(redis, List.of(shard.key()), List.of(Long.toString(policy.maxLength()),
                Long.toString(oldest), Integer.toString(budget))).map(reply -> new Outcome(shard,
                reply.get(0).toLong(), text(reply.get(1)), text(reply.get(2)), text(reply.get(3)),
                reply.get(4).toLong(), text(reply.get(5))));
    }

    private static String text(Response response) {
        String value = response == null ? "" : response.toString();
        return value.isEmpty() ? null : value;
    }
}
