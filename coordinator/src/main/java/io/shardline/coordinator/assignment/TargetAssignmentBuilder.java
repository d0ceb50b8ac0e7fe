package io.shardline.coordinator.assignment;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.StreamDescription;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.group.Member;
import io.shardline.coordinator.record.CoordinatorRecord;
import io.shardline.coordinator.record.Records;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Computes a group's target assignment with its assignor and emits the delta: one {@link
 * io.shardline.coordinator.record.TargetAssignmentRecord} per member whose target changed, then one {@link
 * io.shardline.coordinator.record.AssignmentEpochRecord} (the assignment epoch grows by one only if something
 * changed). The assignor sees each member's previous target as its owned shards, so sticky assignors keep them.
 * Pure; the assignor's answer is validated before it is used.
 */
public final class TargetAssignmentBuilder {

    private final GroupConfig config;
    private final Assignor assignor;
    private Collection<Member> members = List.of();
    private Map<String, SortedSet<ShardId>> target = Map.of();
    private int assignmentEpoch;
    private int groupEpoch;
    private final Map<String, SortedMap<String, ShardSet>> ownedSets = new HashMap<>();

    /** A builder for the group {@code config} using {@code assignor}. */
    public TargetAssignmentBuilder(GroupConfig config, Assignor assignor) {
        this.config = Objects.requireNonNull(config, "config");
        this.assignor = Objects.requireNonNull(assignor, "assignor");
    }

    /** The members (static members that left temporarily included: their target stays reserved). */
    public TargetAssignmentBuilder withMembers(Collection<Member> value) {
        this.members = value;
        return this;
    }

    /** The current target by member id. */
    public TargetAssignmentBuilder withTarget(Map<String, SortedSet<ShardId>> value) {
        this.target = value;
        return this;
    }

    /** The current assignment epoch. */
    public TargetAssignmentBuilder withAssignmentEpoch(int value) {
        this.assignmentEpoch = value;
        return this;
    }

    /** The group epoch the new target is computed for. */
    public TargetAssignmentBuilder withGroupEpoch(int value) {
        this.groupEpoch = value;
        return this;
    }

    /**
     * The new target and its records.
     *
     * @throws AssignorException when the assignor throws or returns an invalid assignment
     * @throws AssignmentPendingException when the assignor's answer is not ready yet
     */
    public TargetResult build() {
        GroupAssignment answer;
        try {
            answer = assignor.assign(groupSpec(), describer());
        } catch (AssignmentPendingException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new AssignorException("assignor '" + assignor.name() + "' failed for group '" + config.groupId()
                    + "': " + e.getMessage(), e);
        }
        if (answer == null) {
            throw invalid("returned no assignment (null)");
        }
        Map<String, SortedSet<ShardId>> next = validate(answer);
        List<CoordinatorRecord> records = new ArrayList<>();
        TreeSet<String> changedMembers = new TreeSet<>();
        for (Member m : members) {
            SortedSet<ShardId> before = target.getOrDefault(m.memberId(), Collections.emptySortedSet());
            SortedSet<ShardId> after = next.get(m.memberId());
            if (!before.equals(after)) {
                records.add(Records.newTargetAssignmentRecord(config.groupId(), m.memberId(), after));
                changedMembers.add(m.memberId());
            }
        }
        boolean changed = !records.isEmpty();
        int epoch = changed ? assignmentEpoch + 1 : assignmentEpoch;
        records.add(Records.newAssignmentEpochRecord(config.groupId(), epoch, groupEpoch));
        return new TargetResult(next, records, epoch, changed, changedMembers);
    }

    private GroupSpec groupSpec() {
        List<MemberSubscription> specs = new ArrayList<>(members.size());
        for (Member m : members) {
            TreeSet<String> subscribed = new TreeSet<>(m.subscriptions());
            subscribed.retainAll(config.streams().keySet());
            SortedMap<String, ShardSet> owned = toShardSets(target.getOrDefault(m.memberId(),
                    Collections.emptySortedSet()));
            ownedSets.put(m.memberId(), owned);
            specs.add(new MemberSubscription(m.memberId(), m.instanceId(), m.rack(), subscribed, owned,
                    assignmentEpoch, m.weight()));
        }
        return new GroupSpec(specs);
    }

    private ShardDescriber describer() {
        TreeMap<String, StreamDescription> streams = new TreeMap<>();
        config.streams().forEach((name, count) -> streams.put(name,
                new StreamDescription(name, count, config.racks().getOrDefault(name, List.of()))));
        return new ShardDescriber(streams);
    }

    /**
     * Validates the answer with one bit per shard (no object per shard) and turns it into {@code ShardId} sets,
     * reusing the previous set of every member whose shards did not change.
     */
    private Map<String, SortedSet<ShardId>> validate(GroupAssignment answer) {
        Map<String, Member> byId = new HashMap<>();
        for (Member m : members) {
            byId.put(m.memberId(), m);
        }
        Map<String, BitSet> given = new HashMap<>();
        Map<String, SortedSet<ShardId>> next = new HashMap<>();
        for (Map.Entry<String, MemberAssignment> e : answer.members().entrySet()) {
            Member m = byId.get(e.getKey());
            if (m == null) {
                throw invalid("gave shards to unknown member '" + e.getKey() + "'");
            }
            for (Map.Entry<String, ShardSet> byStream : e.getValue().shards().entrySet()) {
                String stream = byStream.getKey();
                int count = config.shardCount(stream);
                if (count < 0 || !m.subscriptions().contains(stream)) {
                    throw invalid("gave stream '" + stream + "' to member '" + m.memberId()
                            + "' which does not read it (or the group does not manage it)");
                }
                ShardSet set = byStream.getValue();
                if (set.max() >= count) {
                    throw invalid("gave " + new ShardId(stream, set.max()) + " but stream '" + stream + "' has "
                            + count + " shards");
                }
                BitSet bits = given.computeIfAbsent(stream, k -> new BitSet(count));
                for (int i = 0; i < set.size(); i++) {
                    int index = set.get(i);
                    if (bits.get(index)) {
                        throw invalid("gave " + new ShardId(stream, index) + " to more than one member");
                    }
                    bits.set(index);
                }
            }
            SortedMap<String, ShardSet> previous = ownedSets.get(m.memberId());
            if (previous != null && previous.equals(e.getValue().shards())) {
                next.put(m.memberId(), target.getOrDefault(m.memberId(), Collections.emptySortedSet()));
            } else {
                next.put(m.memberId(), toShardIds(e.getValue()));
            }
        }
        for (Member m : members) {
            next.putIfAbsent(m.memberId(), Collections.emptySortedSet());
        }
        return next;
    }

    private static SortedSet<ShardId> toShardIds(MemberAssignment assignment) {
        TreeSet<ShardId> shards = new TreeSet<>();
        assignment.shards().forEach((stream, set) -> {
            for (int i = 0; i < set.size(); i++) {
                shards.add(new ShardId(stream, set.get(i)));
            }
        });
        return Collections.unmodifiableSortedSet(shards);
    }

    private AssignorException invalid(String what) {
        return new AssignorException("assignor '" + assignor.name() + "' for group '" + config.groupId() + "' "
                + what, null);
    }

    /** The shards of {@code shards} by stream, as the assignor SPI represents them. */
    public static SortedMap<String, ShardSet> toShardSets(SortedSet<ShardId> shards) {
        TreeMap<String, List<Integer>> byStream = new TreeMap<>();
        for (ShardId s : shards) {
            byStream.computeIfAbsent(s.stream(), k -> new ArrayList<>()).add(s.index());
        }
        TreeMap<String, ShardSet> out = new TreeMap<>();
        byStream.forEach((stream, list) -> out.put(stream, ShardSet.of(list)));
        return out;
    }
}
