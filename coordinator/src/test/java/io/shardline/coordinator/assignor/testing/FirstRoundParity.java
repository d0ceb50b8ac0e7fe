package io.shardline.coordinator.assignor.testing;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.ShardDescriber;
import java.util.List;

/**
 * The first round of {@code cooperative-sticky} against Kafka's {@code CooperativeStickyAssignor} (docs/assignors.md,
 * "Parity with Kafka"): where Kafka's first round revoked no more shards than ours, ours must not be less balanced
 * ({@link ParityBalance#worseThan}) unless one of two exemptions holds, each counted by the tests:
 * <ul>
 *   <li>{@link Verdict#BALANCE_FIRST}: our converged ({@code sticky}) assignment is strictly better balanced than
 *       Kafka's, and the shards it moves for that are withheld in the first round;</li>
 *   <li>{@link Verdict#TRADE_OFF}: Kafka's first round is less balanced than ours by another measure (another
 *       class of identical subscriptions or another stream), so neither is at least as balanced as the other.</li>
 * </ul>
 * Otherwise ({@link Verdict#DOMINATED}) Kafka's first round is at least as balanced by every measure and better by
 * one, at no more revocations: the rule is broken, and a run fails on the first such problem (printed with its
 * seed). Kafka's first round is taken as our ownership rule would deliver it ({@link #exclusive}).
 */
public final class FirstRoundParity {

    /** How our first round compares with Kafka's. */
    public enum Verdict {
        /** At least as balanced as Kafka's by every measure, or Kafka's revoked more shards. */
        AS_BALANCED,
        /** Less balanced, but our converged assignment is strictly better balanced than Kafka's. */
        BALANCE_FIRST,
        /** Less balanced by one measure, better by another: neither is at least as balanced as the other. */
        TRADE_OFF,
        /** Less balanced at no fewer revocations of Kafka's, and not better by any measure: breaks the rule. */
        DOMINATED
    }

    private FirstRoundParity() {
    }

    /**
     * The verdict on {@code ours} (our first round) against {@code kafka} (Kafka's), given both converged (sticky)
     * answers; {@code detail} receives the measures ours is worse by, if any.
     */
    public static Verdict judge(GroupSpec group, ShardDescriber shards, GroupAssignment ours, GroupAssignment kafka,
            GroupAssignment ourSticky, GroupAssignment kafkaSticky, List<String> detail) {
        GroupAssignment kafkaExclusive = exclusive(group, kafka);
        ParityBalance ourBalance = ParityBalance.of(group, shards, ours);
        ParityBalance kafkaBalance = ParityBalance.of(group, shards, kafkaExclusive);
        List<String> worse = ourBalance.worseThan(kafkaBalance);
        if (worse.isEmpty() || revocations(group, kafka) > revocations(group, ours)) {
            return Verdict.AS_BALANCED;
        }
        detail.addAll(worse);
        if (ParityBalance.of(group, shards, ourSticky).betterThan(ParityBalance.of(group, shards, kafkaSticky))) {
            return Verdict.BALANCE_FIRST;
        }
        return kafkaBalance.worseThan(ourBalance).isEmpty() ? Verdict.DOMINATED : Verdict.TRADE_OFF;
    }

    /**
     * Kafka's first round as our ownership rule delivers it: without the shards it gives to a member other than
     * their resolved previous owner while another member still claims them. Kafka's {@code CooperativeStickyAssignor}
     * withholds only shards with a resolved previous owner, so a shard claimed by two members of the same generation
     * (a void duplicate claim) or by a member of an older generation that another member outranks is read at once by
     * its new owner while a claimant may still be reading it; ours withholds it (docs/assignors.md,
     * "cooperative-sticky": exclusive ownership), and counts it for nobody in the first round.
     */
    public static GroupAssignment exclusive(GroupSpec group, GroupAssignment kafka) {
        java.util.Map<String, java.util.Set<Integer>> claimers = new java.util.HashMap<>();
        for (int mi = 0; mi < group.members().size(); mi++) {
            int member = mi;
            group.members().get(mi).owned().forEach((stream, set) -> set.stream().forEach(
                    shard -> claimers.computeIfAbsent(stream + "/" + shard, k -> new java.util.HashSet<>()).add(member)));
        }
        java.util.Map<String, int[]> owners = AssignmentChecks.previousOwners(group);
        java.util.Map<String, io.shardline.api.assignor.MemberAssignment> members = new java.util.TreeMap<>();
        for (int mi = 0; mi < group.members().size(); mi++) {
            String id = group.members().get(mi).memberId();
            java.util.Map<String, io.shardline.api.assignor.ShardSet> kept = new java.util.TreeMap<>();
            for (java.util.Map.Entry<String, io.shardline.api.assignor.ShardSet> e
                    : kafka.member(id).shards().entrySet()) {
                int[] owner = owners.getOrDefault(e.getKey(), new int[0]);
                List<Integer> readable = new java.util.ArrayList<>();
                for (int shard : e.getValue().toArray()) {
                    boolean owned = shard < owner.length && owner[shard] == mi;
                    java.util.Set<Integer> claims = claimers.getOrDefault(e.getKey() + "/" + shard, java.util.Set.of());
                    boolean claimedByAnother = claims.size() > (claims.contains(mi) ? 1 : 0);
                    if (owned || !claimedByAnother) {
                        readable.add(shard);
                    }
                }
                if (!readable.isEmpty()) {
                    kept.put(e.getKey(), io.shardline.api.assignor.ShardSet.of(readable));
                }
            }
            members.put(id, io.shardline.api.assignor.MemberAssignment.of(kept));
        }
        return GroupAssignment.of(members);
    }

    /** Shards whose previous owner (highest generation, ties void) does not get them. */
    public static long revocations(GroupSpec group, GroupAssignment assignment) {
        long revoked = 0;
        for (java.util.Map.Entry<String, int[]> e : AssignmentChecks.previousOwners(group).entrySet()) {
            int[] owner = e.getValue();
            for (int shard = 0; shard < owner.length; shard++) {
                if (owner[shard] >= 0) {
                    String id = group.members().get(owner[shard]).memberId();
                    revoked += assignment.member(id).shardsOf(e.getKey()).contains(shard) ? 0 : 1;
                }
            }
        }
        return revoked;
    }
}
