package io.shardline.runtime.coordinator;

import io.shardline.api.assignor.Assignor;
import io.shardline.coordinator.CoordinatorMetrics;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.runtime.store.RecordCodec;
import io.shardline.runtime.store.RedisGroupLog;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * What the coordinator host needs. Immutable.
 *
 * @param clusterName cluster name (event-bus address prefix)
 * @param workerId this worker's id
 * @param redis the Redis client (server identity for re-fencing)
 * @param log the fenced group log
 * @param codec record serialization
 * @param shards writes shard owner keys
 * @param assignors assignor by name, null for unknown names
 * @param metrics the coordinator metrics port
 * @param clockMs monotonic milliseconds
 * @param nanoClock monotonic nanoseconds, for the durations the host measures (answers, assignor runs)
 * @param tickMs how often to call {@code tick} (expiring members)
 * @param heartbeatIntervalMs told to members in NOT_COORDINATOR answers
 * @param sessionTimeoutMs told to members in NOT_COORDINATOR answers; also the wait before reclaiming after being deposed
 */
public record CoordinatorHostSettings(
        String clusterName,
        String workerId,
        RedisClient redis,
        RedisGroupLog log,
        RecordCodec codec,
        ShardCommands shards,
        Function<String, Assignor> assignors,
        CoordinatorMetrics metrics,
        LongSupplier clockMs,
        LongSupplier nanoClock,
        long tickMs,
        int heartbeatIntervalMs,
        int sessionTimeoutMs) {

    /** The settings with {@link System#nanoTime} as the nanosecond clock (the worker's; tests pass their own). */
    public CoordinatorHostSettings(String clusterName, String workerId, RedisClient redis, RedisGroupLog log,
                                   RecordCodec codec, ShardCommands shards, Function<String, Assignor> assignors,
                                   CoordinatorMetrics metrics, LongSupplier clockMs, long tickMs, int heartbeatIntervalMs,
                                   int sessionTimeoutMs) {
        this(clusterName, workerId, redis, log, codec, shards, assignors, metrics, clockMs, System::nanoTime, tickMs,
                heartbeatIntervalMs, sessionTimeoutMs);
    }
}
