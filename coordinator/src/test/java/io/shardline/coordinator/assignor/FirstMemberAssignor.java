package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import java.util.TreeMap;

/**
 * A custom assignor for registry tests: gives every shard to the first member (in member order) subscribed
 * to its stream.
 */
public final class FirstMemberAssignor implements Assignor {

    /** Its name. */
    public static final String NAME = "first-member";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public GroupAssignment assign(GroupSpec group, ShardDescriber shards) {
        TreeMap<String, MemberAssignment> result = new TreeMap<>();
        TreeMap<String, TreeMap<String, ShardSet>> byMember = new TreeMap<>();
        MemberSubscription[] members = MemberOrder.sorted(group);
        for (MemberSubscription m : members) {
            byMember.put(m.memberId(), new TreeMap<>());
        }
        shards.streams().forEach((stream, description) -> {
            for (MemberSubscription m : members) {
                if (m.subscriptions().contains(stream)) {
                    byMember.get(m.memberId()).put(stream, ShardSet.range(description.shardCount()));
                    break;
                }
            }
        });
        byMember.forEach((id, sets) -> result.put(id, new MemberAssignment(sets)));
        return new GroupAssignment(result);
    }

    /** Not an assignor at all. */
    public static final class NotAnAssignor {
    }

    /** An assignor without a no-argument constructor. */
    public static final class NeedsArgument implements Assignor {
        private final String name;

        /** Needs a name. */
        public NeedsArgument(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public GroupAssignment assign(GroupSpec group, ShardDescriber shards) {
            return GroupAssignment.of(java.util.Map.of());
        }
    }
}
