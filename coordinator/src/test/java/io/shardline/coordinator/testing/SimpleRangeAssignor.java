package io.shardline.coordinator.testing;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A tiny range assignor for coordinator tests (the real ones live in {@code coordinator.assignor}): per stream,
 * subscribed members sorted by instance id (static first) then member id get contiguous ranges.
 */
public final class SimpleRangeAssignor implements Assignor {

    @Override
    public String name() {
        return "test-range";
    }

    @Override
    public GroupAssignment assign(GroupSpec group, ShardDescriber shards) {
        Map<String, TreeMap<String, ShardSet>> out = new HashMap<>();
        for (MemberSubscription m : group.members()) {
            out.put(m.memberId(), new TreeMap<>());
        }
        shards.streams().forEach((stream, description) -> {
            List<MemberSubscription> subscribed = new ArrayList<>();
            for (MemberSubscription m : group.members()) {
                if (m.subscriptions().contains(stream)) {
                    subscribed.add(m);
                }
            }
            subscribed.sort(Comparator
                    .comparing((MemberSubscription m) -> m.instanceId().isEmpty())
                    .thenComparing(m -> m.instanceId().orElse(""))
                    .thenComparing(MemberSubscription::memberId));
            int n = subscribed.size();
            int count = description.shardCount();
            for (int i = 0; i < n; i++) {
                int from = count * i / n;
                int to = count * (i + 1) / n;
                int[] range = new int[to - from];
                for (int s = from; s < to; s++) {
                    range[s - from] = s;
                }
                out.get(subscribed.get(i).memberId()).put(stream, ShardSet.fromArray(range));
            }
        });
        Map<String, MemberAssignment> result = new HashMap<>();
        out.forEach((id, map) -> result.put(id, MemberAssignment.of(map)));
        return GroupAssignment.of(result);
    }
}
