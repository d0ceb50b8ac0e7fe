package io.shardline.benchmarks.coordinator;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.CoordinatorMetrics;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.assignment.TargetAssignmentBuilder;
import io.shardline.coordinator.assignment.TargetResult;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.group.Member;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.record.CoordinatorRecord;
import io.shardline.coordinator.record.Records;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Builds the persisted records of a converged group (every member {@code STABLE}, assigned = target, every shard
 * owned) directly, so benchmarks start from a stable group of any size without replaying its history.
 */
final class StableGroups {

    static final String GROUP = "bench";
    static final String STREAM = "orders";

    private StableGroups() {
    }

    static String memberId(int i) {
        return String.format("member-%06d", i);
    }

    static GroupConfig config(int shards, String assignor) {
        return new GroupConfig(GROUP, new TreeMap<>(Map.of(STREAM, shards)), assignor,
                io.shardline.coordinator.group.RebalanceProtocol.COOPERATIVE, 45_000, 3_000);
    }

    static List<Member> members(int count) {
        List<Member> members = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            members.add(new Member.Builder(memberId(i)).setSubscriptions(List.of(STREAM)).setState(MemberState.STABLE)
                    .setEpochs(i + 2, -1).build());
        }
        return members;
    }

    /** The records of a stable group of {@code memberCount} members over {@code shards} shards. */
    static List<CoordinatorRecord> records(int memberCount, int shards, String assignorName) {
        GroupConfig config = config(shards, assignorName);
        Assignor assignor = AssignorRegistry.builtIn(assignorName);
        List<Member> members = members(memberCount);
        TargetResult target = new TargetAssignmentBuilder(config, assignor).withMembers(members)
                .withTarget(Map.of()).withAssignmentEpoch(0).withGroupEpoch(memberCount + 2).build();
        List<CoordinatorRecord> records = new ArrayList<>();
        records.add(Records.newGroupConfigRecord(config));
        records.add(Records.newGroupEpochRecord(GROUP, memberCount + 2, ChangeReason.MEMBER_JOINED));
        for (Member m : members) {
            SortedSet<ShardId> shardsOfMember = target.target().get(m.memberId());
            TreeMap<ShardId, Integer> assigned = new TreeMap<>();
            shardsOfMember.forEach(s -> assigned.put(s, 1));
            Member stable = new Member.Builder(m).setAssigned(assigned).build();
            records.add(Records.newMemberMetadataRecord(GROUP, stable));
            records.add(Records.newMemberStateRecord(GROUP, stable));
            records.add(Records.newTargetAssignmentRecord(GROUP, m.memberId(), shardsOfMember));
            shardsOfMember.forEach(s -> records.add(Records.newShardOwnerRecord(GROUP, s, m.memberId(), 1)));
        }
        records.add(Records.newAssignmentEpochRecord(GROUP, 1, memberCount + 2));
        return records;
    }

    /** A coordinator that replayed {@code records} and was activated at time 0. */
    static GroupCoordinator coordinator(List<CoordinatorRecord> records) {
        GroupCoordinator coordinator = new GroupCoordinator(AssignorRegistry::builtIn, CoordinatorMetrics.NOOP);
        records.forEach(coordinator::replay);
        coordinator.activate(0, 0);
        return coordinator;
    }

    /** The steady heartbeat of every member: current epoch, owning exactly its assignment. */
    static HeartbeatRequest[] steadyRequests(GroupCoordinator coordinator) {
        var group = coordinator.group(GROUP).orElseThrow();
        List<HeartbeatRequest> out = new ArrayList<>();
        for (Member m : group.members().values()) {
            out.add(new HeartbeatRequest(GROUP, m.memberId(), m.memberEpoch(), Optional.empty(), Optional.empty(),
                    new TreeSet<>(List.of(STREAM)), new TreeSet<>(m.assigned().keySet()), List.of(),
                    group.assignmentEpoch()));
        }
        return out.toArray(new HeartbeatRequest[0]);
    }
}
