package io.shardline.coordinator.simulation;

import io.shardline.api.handler.ShardId;
import java.util.HashMap;
import java.util.Map;

/**
 * The owner keys {@code {<stream>:<i>}:owner:<group>} of the simulated group as Redis would hold them: written by the leader host after it
 * persisted a grant, read by the fenced-acknowledgement check of a member that processes a shard.
 */
final class SimRedis {

    /** One owner key's value. */
    record Owner(String memberId, int epoch) {
    }

    private final Map<ShardId, Owner> owners = new HashMap<>();

    void writeOwner(ShardId shard, String memberId, int epoch) {
        Owner previous = owners.get(shard);
        if (previous != null && epoch <= previous.epoch()) {
            throw new InvariantViolation("owner epoch of " + shard + " went from " + previous.epoch() + " to " + epoch);
        }
        owners.put(shard, new Owner(memberId, epoch));
    }

    Owner owner(ShardId shard) {
        return owners.get(shard);
    }
}
