package io.shardline.runtime.shard;

import io.shardline.api.handler.ShardId;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A member's wake-up connections: its idle shards spread over up to {@value #CONNECTIONS} {@link WakeUpLoop}s
 * (one blocking connection each, opened when a shard first goes idle on it), by a stable hash of the shard. Every
 * return of a blocking read costs Redis in proportion to the keys it names and leaves that loop's shards unwatched
 * until it is issued again; spreading the shards makes each read name a quarter of them and each return concern a
 * quarter of the member's records. In cluster mode one polling loop serves them all (it reads per hash slot anyway).
 *
 * <p>Used on the member's context only.
 */
final class WakeUps {

    /** Blocking wake-up connections per member, at most. */
    static final int CONNECTIONS = 4;

    private final List<WakeUpLoop> loops = new ArrayList<>();

    WakeUps(ShardRedis redis, Context context, long blockMs, Consumer<ShardId> onWake) {
        this(redis, context, blockMs, onWake, null);
    }

    /** Wake-up connections whose blocking reads carry {@code behind} ({@link ReadBehind}; null: none). */
    WakeUps(ShardRedis redis, Context context, long blockMs, Consumer<ShardId> onWake, ReadBehind behind) {
        int n = redis.cluster() ? 1 : CONNECTIONS;
        for (int i = 0; i < n; i++) {
            loops.add(new WakeUpLoop(redis, context, blockMs, onWake, behind));
        }
    }

    /** Waits for entries after {@code id} on {@code shard}. */
    void add(ShardId shard, String id) {
        loop(shard).add(shard, id);
    }

    /** Stops waiting for {@code shard}. */
    void remove(ShardId shard) {
        loop(shard).remove(shard);
    }

    /** Closes every connection; no more wake-ups. */
    Future<Void> close() {
        return Future.join(loops.stream().map(WakeUpLoop::close).toList()).mapEmpty();
    }

    private WakeUpLoop loop(ShardId shard) {
        return loops.get(Math.floorMod(31 * shard.stream().hashCode() + shard.index(), loops.size()));
    }
}
