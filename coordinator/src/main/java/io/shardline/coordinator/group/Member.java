package io.shardline.coordinator.group;

import io.shardline.api.handler.ShardId;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One member as the coordinator knows it: identity, subscriptions, epochs and its current assignment.
 * Immutable; change it with {@link Builder}.
 *
 * <p>Invariants: {@code assigned} and {@code revoking} are disjoint; the shards of all members' {@code assigned}
 * and {@code revoking} sets are disjoint (a shard has at most one holder); a member only gets new shards while
 * {@code revoking} is empty. {@code memberEpoch} changes only through {@link Builder#updateMemberEpoch} (a grant:
 * the old epoch stays acceptable as {@code previousMemberEpoch}) or {@link Builder#resetMemberEpoch} (a new
 * lifecycle or a fence: the old epoch is no longer accepted).
 *
 * @param memberId the member id
 * @param instanceId the static instance id, if any
 * @param rack the rack, if known
 * @param subscriptions the streams the member reads
 * @param memberEpoch the member's epoch
 * @param previousMemberEpoch the epoch before the last grant (still accepted), or -1
 * @param state where the member is in reconciliation
 * @param assigned shards granted to the member, with their owner epochs
 * @param revoking shards taken from the member that it has not yet reported revoked
 * @param weight its capacity relative to the other members (>= 1; 0 reads as 1)
 */
public record Member(
        String memberId,
        Optional<String> instanceId,
        Optional<String> rack,
        SortedSet<String> subscriptions,
        int memberEpoch,
        int previousMemberEpoch,
        MemberState state,
        SortedMap<ShardId, Integer> assigned,
        SortedSet<ShardId> revoking,
        int weight) {

    /** Validates and copies. */
    public Member {
        Objects.requireNonNull(memberId, "memberId");
        instanceId = Objects.requireNonNullElse(instanceId, Optional.empty());
        rack = Objects.requireNonNullElse(rack, Optional.empty());
        subscriptions = Collections.unmodifiableSortedSet(new TreeSet<>(subscriptions));
        Objects.requireNonNull(state, "state");
        assigned = Collections.unmodifiableSortedMap(new TreeMap<>(assigned));
        revoking = Collections.unmodifiableSortedSet(new TreeSet<>(revoking));
        weight = Math.max(1, weight);
        for (ShardId s : revoking) {
            if (assigned.containsKey(s)) {
                throw new IllegalArgumentException("member '" + memberId + "': shard " + s
                        + " is both assigned and revoking");
            }
        }
    }

    /** True when the member holds {@code shard} (assigned or revoking). */
    public boolean holds(ShardId shard) {
        return assigned.containsKey(shard) || revoking.contains(shard);
    }

    /** All shards the member holds: assigned and revoking, sorted. */
    public SortedSet<ShardId> held() {
        TreeSet<ShardId> all = new TreeSet<>(assigned.keySet());
        all.addAll(revoking);
        return all;
    }

    /**
     * Builds a changed copy of a member (Java records have no withers). Epochs change only through
     * {@link #updateMemberEpoch} and {@link #resetMemberEpoch}.
     */
    public static final class Builder {
        private final String memberId;
        private Optional<String> instanceId = Optional.empty();
        private Optional<String> rack = Optional.empty();
        private SortedSet<String> subscriptions = new TreeSet<>();
        private int memberEpoch;
        private int previousMemberEpoch = -1;
        private MemberState state = MemberState.STABLE;
        private SortedMap<ShardId, Integer> assigned = new TreeMap<>();
        private SortedSet<ShardId> revoking = new TreeSet<>();
        private int weight = 1;

        /** A new member with epoch 0 and nothing assigned. */
        public Builder(String memberId) {
            this.memberId = Objects.requireNonNull(memberId, "memberId");
        }

        /** A copy of {@code member} to change. */
        public Builder(Member member) {
            this.memberId = member.memberId;
            this.instanceId = member.instanceId;
            this.rack = member.rack;
            this.subscriptions = member.subscriptions;
            this.memberEpoch = member.memberEpoch;
            this.previousMemberEpoch = member.previousMemberEpoch;
            this.state = member.state;
            this.assigned = member.assigned;
            this.revoking = member.revoking;
            this.weight = member.weight;
        }

        /** Sets the weight. */
        public Builder setWeight(int value) {
            this.weight = value;
            return this;
        }

        /** Sets the static instance id. */
        public Builder setInstanceId(Optional<String> value) {
            this.instanceId = value;
            return this;
        }

        /** Sets the rack. */
        public Builder setRack(Optional<String> value) {
            this.rack = value;
            return this;
        }

        /** Sets the subscriptions. */
        public Builder setSubscriptions(Collection<String> value) {
            this.subscriptions = new TreeSet<>(value);
            return this;
        }

        /** A grant: {@code epoch} becomes current and the old epoch stays acceptable as the previous one. */
        public Builder updateMemberEpoch(int epoch) {
            if (epoch <= memberEpoch) {
                throw new IllegalStateException("member '" + memberId + "': epoch must grow, " + memberEpoch
                        + " -> " + epoch);
            }
            this.previousMemberEpoch = memberEpoch;
            this.memberEpoch = epoch;
            return this;
        }

        /** A new lifecycle or a fence: {@code epoch} becomes current and no older epoch is accepted. */
        public Builder resetMemberEpoch(int epoch) {
            if (epoch <= memberEpoch) {
                throw new IllegalStateException("member '" + memberId + "': epoch must grow, " + memberEpoch
                        + " -> " + epoch);
            }
            this.previousMemberEpoch = -1;
            this.memberEpoch = epoch;
            return this;
        }

        /** Restores persisted epochs (replay only). */
        public Builder setEpochs(int epoch, int previousEpoch) {
            this.memberEpoch = epoch;
            this.previousMemberEpoch = previousEpoch;
            return this;
        }

        /** Sets the state. */
        public Builder setState(MemberState value) {
            this.state = value;
            return this;
        }

        /** Sets the granted shards with their owner epochs. */
        public Builder setAssigned(Map<ShardId, Integer> value) {
            this.assigned = new TreeMap<>(value);
            return this;
        }

        /** Sets the shards being revoked. */
        public Builder setRevoking(Collection<ShardId> value) {
            this.revoking = new TreeSet<>(value);
            return this;
        }

        /** The member. */
        public Member build() {
            return new Member(memberId, instanceId, rack, subscriptions, memberEpoch, previousMemberEpoch, state,
                    assigned, revoking, weight);
        }
    }
}
