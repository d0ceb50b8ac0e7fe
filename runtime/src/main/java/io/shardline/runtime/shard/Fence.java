package io.shardline.runtime.shard;

import io.shardline.api.handler.ShardId;
import java.util.Objects;

/**
 * What every fenced shard command carries: the shard, the consumer group, the member and the owner epoch the
 * coordinator wrote to the shard's owner key. Redis refuses a read or acknowledgement whose member and epoch are not
 * the owner key's ({@code FENCED}), so a stale owner can neither read nor acknowledge. Immutable.
 *
 * @param shard the shard (one Redis Stream key)
 * @param group the consumer group (also the Redis consumer-group name on the shard)
 * @param member the member id (the Redis consumer name)
 * @param ownerEpoch the epoch under which the member owns the shard
 */
public record Fence(ShardId shard, String group, String member, long ownerEpoch) {

    public Fence {
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(member, "member");
    }

    /** The shard's routing hash {@code {<stream>:<i>}:routing} (the shard's slot; docs/protocol.md section 8b). */
    public String routingKey() {
        return routingKey(shard);
    }

    /** The routing hash of {@code shard}: epoch, cutovers and each group's released barrier (docs/protocol.md 8b). */
    public static String routingKey(ShardId shard) {
        return shard.key() + ":routing";
    }

    @Override
    public String toString() {
        return shard + "/" + group + "/" + member + "@" + ownerEpoch;
    }
}
