package io.shardline.coordinator.assignor.testing;

import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.StreamDescription;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * One assignment problem for tests and benchmarks: the group, the streams, and the seed that produced it
 * (so that a failure can be reproduced with {@link RandomProblems#generate(long, ProblemShape)}). Immutable.
 *
 * @param seed the seed this problem was generated from, or -1 when it was built by hand
 * @param group the members
 * @param shards the streams
 */
public record AssignmentProblem(long seed, GroupSpec group, ShardDescriber shards) {

    /** Validates. */
    public AssignmentProblem {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(shards, "shards");
    }

    /** A hand-built problem (seed -1). */
    public static AssignmentProblem of(GroupSpec group, ShardDescriber shards) {
        return new AssignmentProblem(-1, group, shards);
    }

    /** The same problem with its members in a shuffled order (assignors must not care). */
    public AssignmentProblem shuffled(RandomGenerator random) {
        List<MemberSubscription> members = new ArrayList<>(group.members());
        for (int i = members.size() - 1; i > 0; i--) {
            Collections.swap(members, i, random.nextInt(i + 1));
        }
        return new AssignmentProblem(seed, new GroupSpec(members), shards);
    }

    /** Total number of shards over all streams. */
    public long totalShards() {
        return shards.streams().values().stream().mapToLong(StreamDescription::shardCount).sum();
    }

    /** A compact description for failure messages; the full problem for small ones. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("AssignmentProblem[seed=").append(seed)
                .append(", members=").append(group.members().size())
                .append(", streams=").append(shards.streams().size())
                .append(", shards=").append(totalShards()).append(']');
        if (group.members().size() <= 20 && totalShards() <= 200) {
            sb.append("\n  streams:");
            shards.streams().values().forEach(s -> sb.append("\n    ").append(s.name()).append(": ")
                    .append(s.shardCount()).append(s.racks().isEmpty() ? "" : " racks=" + s.racks()));
            sb.append("\n  members:");
            group.members().forEach(m -> sb.append("\n    ").append(m.memberId())
                    .append(m.instanceId().map(i -> " instance=" + i).orElse(""))
                    .append(m.rack().map(r -> " rack=" + r).orElse(""))
                    .append(" subscriptions=").append(m.subscriptions())
                    .append(m.owned().isEmpty() ? "" : " owned=" + m.owned() + " generation=" + m.generation()));
        }
        return sb.toString();
    }
}
