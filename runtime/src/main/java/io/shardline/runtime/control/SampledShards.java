package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.rest.entity.MemberStatus;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which shards of a listener one worker's metrics sampler reads: those its own members own, by the members'
 * reports, and on the leader also those no member owns. Every shard's lag is then read by one worker (two for a
 * moment while it moves), not by all of them. Stateless.
 */
final class SampledShards {

    private SampledShards() {
    }

    /**
     * The shards of {@code all} (kept in order) owned by a member of {@code workerId}, plus, when {@code unowned},
     * those no member in {@code members} owns.
     */
    static List<ShardId> select(List<ShardId> all, List<MemberStatus> members, String workerId, boolean unowned) {
        Set<String> local = new HashSet<>();
        Set<String> owned = new HashSet<>();
        for (MemberStatus member : members) {
            owned.addAll(member.shards());
            if (member.workerId().equals(workerId)) {
                local.addAll(member.shards());
            }
        }
        return all.stream().filter(shard -> {
            String id = shard.toString();
            return local.contains(id) || unowned && !owned.contains(id);
        }).toList();
    }
}
