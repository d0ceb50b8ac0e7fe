package io.shardline.benchmarks.consumption;

import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import io.shardline.api.handler.SyncHandler;
import io.shardline.runtime.shard.ConsumerSettings;
import io.shardline.runtime.shard.MemberShards;
import java.util.List;

/**
 * Shardline's consumption path as a worker runs it (one member owning every shard, fenced reads and acks, the
 * default settings but for {@code max.concurrency} = the shard count and {@code batch.size} 100, as the peers get),
 * the handler handing each record to the sink. The shards' owner keys name member {@code m}, epoch 1
 * ({@link BenchRedis#group}).
 */
final class ShardlinePeer implements Peer {

    private final BenchRedis b;
    private final int maxAttempts;
    private MemberShards member;

    /** A peer whose handler is called at most {@code maxAttempts} times per record before it is dead-lettered. */
    ShardlinePeer(BenchRedis b, int maxAttempts) {
        this.b = b;
        this.maxAttempts = maxAttempts;
    }

    @Override
    public String name() {
        return "shardline";
    }

    @Override
    public void start(List<ShardId> shards, String group, Sink sink) {
        SyncHandler handler = new SyncHandler() {
            @Override
            public void handle(StreamRecord record, ShardContext shard) {
                sink.accept(record.shard(), record.field("t"));
            }
        };
        ConsumerSettings settings = ConsumerSettings.defaults(group, group + ".dlq")
                .withConcurrency(shards.size(), 100).withRetries(maxAttempts, 10, 100, 30_000);
        member = b.member("m", handler, settings, "peers-" + group);
        shards.forEach(s -> BenchRedis.await(member.acquire(s, 1)));
    }

    @Override
    public void close() {
        BenchRedis.await(member.close());
    }
}
