package io.shardline.runtime.listener;

import com.codahale.metrics.MetricRegistry;
import io.shardline.api.handler.ShardId;
import io.shardline.runtime.shard.MemberShards;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.runtime.shard.ShardRedis;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;

/**
 * A listener run without a group coordinator: every shard is handed out statically, round-robin over
 * the listener's members on this worker, under one owner epoch written by this class (as the coordinator
 * would). For plugin tests, benchmarks and single-process demos; never run two of them, or one beside a
 * coordinated group, on the same shards: the later one fences the earlier. Thread-safe.
 */
public final class StandaloneListener {

    private final Listener listener;

    private StandaloneListener(Listener listener) {
        this.listener = listener;
    }

    /**
     * Starts the listener and gives it every shard under {@code epoch} (which must be higher than any
     * epoch recorded for these shards before).
     */
    public static Future<StandaloneListener> start(Vertx vertx, ShardRedis redis, ListenerDefinition definition,
                                                   String workerId, long epoch, MetricRegistry registry) {
        ShardCommands commands = new ShardCommands(redis);
        return Listener.start(vertx, redis, definition, workerId, registry, new MemberShards.Events() { }, System::currentTimeMillis)
                .compose(listener -> {
                    List<MemberShards> members = listener.members();
                    List<ShardId> shards = listener.shards();
                    List<Future<Void>> acquired = new ArrayList<>();
                    for (int i = 0; i < shards.size(); i++) {
                        MemberShards member = members.get(i % members.size());
                        ShardId shard = shards.get(i);
                        acquired.add(commands.setOwner(shard, definition.config().group(), member.memberId(), epoch).compose(v -> member.acquire(shard, epoch)));
                    }
                    return Future.all(acquired).map(v -> new StandaloneListener(listener));
                });
    }

    /** The running listener. */
    public Listener listener() {
        return listener;
    }

    /** Releases every shard and stops the handlers. */
    public Future<Void> close() {
        return listener.close();
    }
}
