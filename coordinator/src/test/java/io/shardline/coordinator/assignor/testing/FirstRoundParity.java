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
 * one, at no more revocations: the rule is broken. A run tolerates this on at most {@link #DOMINATED_ALLOWED} of its
 * problems (the known remainder, printed with its seeds) and fails above it.
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

    /**
     * Share of compared problems on which a run tolerates {@link Verdict#DOMINATED} (docs/assignors.md, "Parity
     * with Kafka": the remaining cases, where Kafka's equally balanced converged assignment has other counts).
     */
    public static final double DOMINATED_ALLOWED = 0.01;

    private FirstRoundParity() {
    }

    /** The most {@link Verdict#DOMINATED} verdicts a run over {@code compared} problems tolerates. */
    public static int dominatedAllowed(int compared) {
        return (int) Math.floor(compared * DOMINATED_ALLOWED);
    }

    /**
     * The verdict on {@code ours} (our first round) against {@code kafka} (Kafka's), given both converged (sticky)
     * answers; {@code detail} receives the measures ours is worse by, if any.
     */
    public static Verdict judge(GroupSpec group, ShardDescriber shards, GroupAssignment ours, GroupAssignment kafka,
            GroupAssignment ourSticky, GroupAssignment kafkaSticky, List<String> detail) {
        ParityBalance ourBalance = ParityBalance.of(group, shards, ours);
        ParityBalance kafkaBalance = ParityBalance.of(group, shards, kafka);
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
