package io.shardline.coordinator.member;

import io.shardline.api.handler.ShardId;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What {@link Membership} asks the runtime to do. The runtime executes actions in order.
 */
public sealed interface MemberAction {

    /**
     * Start a shard: take over its pending entries, then read it, fencing reads and acknowledgements with
     * {@code ownerEpoch} (the coordinator wrote it to the shard's owner key before answering).
     *
     * @param shard the shard
     * @param ownerEpoch its owner epoch
     */
    record StartShard(ShardId shard, int ownerEpoch) implements MemberAction {
        /** Validates. */
        public StartShard {
            Objects.requireNonNull(shard, "shard");
        }
    }

    /**
     * Revoke a shard: stop new reads, finish the in-flight batch, then call
     * {@link Membership#onShardDrained(ShardId, int)} with this action's generation (a drain that completes after
     * the member fenced itself belongs to an older generation and is ignored, also if the shard was granted and
     * revoked again since).
     *
     * @param shard the shard
     * @param generation the member's fencing generation when the revocation was asked
     */
    record RevokeShard(ShardId shard, int generation) implements MemberAction {
        /** Validates. */
        public RevokeShard {
            Objects.requireNonNull(shard, "shard");
        }
    }

    /**
     * Stop every shard at once, no more acknowledgements (self-fencing or fenced by the coordinator).
     *
     * @param shards the shards owned or draining at that moment
     * @param reason why
     */
    record FenceAll(SortedSet<ShardId> shards, String reason) implements MemberAction {
        /** Copies. */
        public FenceAll {
            shards = Collections.unmodifiableSortedSet(new TreeSet<>(shards));
            Objects.requireNonNull(reason, "reason");
        }
    }
}
