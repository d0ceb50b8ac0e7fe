package io.shardline.runtime.member;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.shard.MemberShards;
import io.vertx.core.Future;

/**
 * What the heartbeat loop needs from a member's shard consumption (docs/architecture.md, "A heartbeat's way"): start a shard under
 * its owner epoch, release it (the future completes when its in-flight batch finished), stop everything
 * at once. {@link #of(MemberShards)} adapts the consumption helper's poller; tests pass a fake.
 */
public interface MemberShardsPort {

    /** Takes the shard over (pending entries first), then reads it. */
    Future<Void> acquire(ShardId shard, long ownerEpoch);

    /** Stops reading; completes when the shard stopped and its in-flight batch finished. */
    Future<Void> release(ShardId shard);

    /** Self-fencing: stop every shard at once, no more acknowledgements. */
    Future<Void> fenceAll();

    /**
     * The member's lease deadline on the heartbeat loop's clock ({@code Long.MIN_VALUE} when it has none): from
     * then on nothing may be handed to the handler or acknowledged, even before {@link #fenceAll} is called. The
     * loop calls it with every change of the deadline, before it starts or stops shards. Ports without a lease
     * gate ignore it.
     */
    default void leaseUntil(long deadlineMs) {
    }

    /** The adapter over the real poller. */
    static MemberShardsPort of(MemberShards shards) {
        return new MemberShardsPort() {
            @Override
            public Future<Void> acquire(ShardId shard, long ownerEpoch) {
                return shards.acquire(shard, ownerEpoch);
            }

            @Override
            public Future<Void> release(ShardId shard) {
                return shards.release(shard);
            }

            @Override
            public Future<Void> fenceAll() {
                return shards.fenceAll();
            }

            @Override
            public void leaseUntil(long deadlineMs) {
                shards.leaseUntil(deadlineMs);
            }
        };
    }
}
