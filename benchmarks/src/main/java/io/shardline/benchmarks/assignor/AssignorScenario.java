package io.shardline.benchmarks.assignor;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.StreamDescription;
import io.shardline.coordinator.assignor.StickyAssignor;
import io.shardline.coordinator.assignor.testing.AssignmentProblem;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The assignor benchmark inputs, reproducing Kafka's own large sticky tests
 * ({@code AbstractStickyAssignorTest}) and the sizes of its {@code ClientSideAssignorBenchmark}. A stream is a
 * topic, a shard a partition. Racks follow Kafka's test setup: three racks, shard {@code p} on racks
 * {@code p % 3} and {@code (p + 1) % 3} (replication factor 2), member {@code i} on rack {@code i % 3}.
 * "Rebalance" variants first assign with our sticky assignor, then give every member but the first its
 * previous shards in generation 1 (Kafka's tests do the same with Kafka's assignor); both assignors then get
 * that same input. Random choices use fixed seeds.
 */
public enum AssignorScenario {

    /** {@code testLargeAssignmentAndGroupWithUniformSubscription}: 500 x 2,000 shards, 2,000 members, fresh. */
    UNIFORM_1M_FRESH(() -> uniform(500, 2_000, 2_000, false, -1)),
    /** The same after a rebalance. */
    UNIFORM_1M_REBALANCE(() -> rebalanced(uniform(500, 2_000, 2_000, false, -1))),
    /** Rack-aware uniform subscription (Kafka's test uses 50 topics with racks): fresh. */
    UNIFORM_RACKS_100K_FRESH(() -> uniform(50, 2_000, 2_000, true, -1)),
    /** Rack-aware uniform subscription after a rebalance. */
    UNIFORM_RACKS_100K_REBALANCE(() -> rebalanced(uniform(50, 2_000, 2_000, true, -1))),
    /** {@code ...WithNonEqualSubscription}: as uniform, but the last member reads only the first topic: fresh. */
    NON_EQUAL_1M_FRESH(() -> uniform(500, 2_000, 2_000, false, 1_999)),
    /** The same after a rebalance. */
    NON_EQUAL_1M_REBALANCE(() -> rebalanced(uniform(500, 2_000, 2_000, false, 1_999))),
    /** {@code testAssignmentAndGroupWithNonEqualSubscriptionNotTimeout}: 100 x 200 shards, 500 members, fresh. */
    NON_EQUAL_NOT_TIMEOUT_FRESH(() -> halves(100, 200, 500)),
    /** The same after a rebalance. */
    NON_EQUAL_NOT_TIMEOUT_REBALANCE(() -> rebalanced(halves(100, 200, 500))),
    /** {@code testLargeAssignmentWithMultipleConsumersLeavingAndRandomSubscription}. */
    RANDOM_SUBSCRIPTIONS_50_LEAVE(AssignorScenario::randomLeaving),
    /** {@code ClientSideAssignorBenchmark} sizes: 1,000 members, 50 shards each, 100 topics, homogeneous, full. */
    CSAB_1K_HOMOGENEOUS_FULL(() -> clientSide(1_000, false, false)),
    /** The same, incremental (previous assignment plus one new member). */
    CSAB_1K_HOMOGENEOUS_INCREMENTAL(() -> clientSide(1_000, false, true)),
    /** 1,000 members, 100 topics x 100 shards (Kafka's partitionsToConsumersRatio 10), homogeneous, full. */
    CSAB_1K_R10_HOMOGENEOUS_FULL(() -> clientSide(1_000, 10, false, false)),
    /** The same, incremental (one member joins a group whose other members own their previous assignment). */
    CSAB_1K_R10_HOMOGENEOUS_INCREMENTAL(() -> clientSide(1_000, 10, false, true)),
    /** 1,000 members reading two neighbouring topics each, full. */
    CSAB_1K_HETEROGENEOUS_FULL(() -> clientSide(1_000, true, false)),
    /** The same, incremental. */
    CSAB_1K_HETEROGENEOUS_INCREMENTAL(() -> clientSide(1_000, true, true)),
    /** 10,000 members, 500,000 shards, homogeneous, full. */
    CSAB_10K_HOMOGENEOUS_FULL(() -> clientSide(10_000, false, false)),
    /** The same, incremental. */
    CSAB_10K_HOMOGENEOUS_INCREMENTAL(() -> clientSide(10_000, false, true)),
    /** 10,000 members, 500,000 shards, two neighbouring topics each, full (Kafka's does not finish in 2 minutes). */
    CSAB_10K_HETEROGENEOUS_FULL(() -> clientSide(10_000, true, false)),
    /** The same, incremental (Kafka's finishes here, in 10-30 s on this machine). */
    CSAB_10K_HETEROGENEOUS_INCREMENTAL(() -> clientSide(10_000, true, true));

    private static final int RACKS = 3;
    private static final int PARTITIONS_PER_MEMBER = 50;
    private static final int CLIENT_SIDE_TOPICS = 100;

    private final java.util.function.Supplier<AssignmentProblem> builder;

    AssignorScenario(java.util.function.Supplier<AssignmentProblem> builder) {
        this.builder = builder;
    }

    /** Builds the problem (deterministic). */
    public AssignmentProblem problem() {
        return builder.get();
    }

    private static String topic(int i) {
        return String.format("t%04d", i);
    }

    private static String member(int i) {
        return String.format("c%05d", i);
    }

    private static ShardDescriber topics(int count, int shards, boolean racks) {
        Map<String, StreamDescription> streams = new LinkedHashMap<>();
        List<Set<String>> shardRacks = new ArrayList<>();
        if (racks) {
            for (int p = 0; p < shards; p++) {
                shardRacks.add(Set.of("rack" + p % RACKS, "rack" + (p + 1) % RACKS));
            }
        }
        for (int t = 0; t < count; t++) {
            streams.put(topic(t), new StreamDescription(topic(t), shards, shardRacks));
        }
        return ShardDescriber.of(streams);
    }

    private static MemberSubscription subscriber(int i, List<String> topics, boolean racks) {
        MemberSubscription m = MemberSubscription.of(member(i), topics);
        return racks ? m.withRack("rack" + i % RACKS) : m;
    }

    /** Every member reads every topic, except {@code oddMember} (if >= 0), which reads only the first. */
    private static AssignmentProblem uniform(int topicCount, int shards, int members, boolean racks, int oddMember) {
        ShardDescriber describer = topics(topicCount, shards, racks);
        List<String> all = new ArrayList<>(describer.streams().keySet());
        List<MemberSubscription> list = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            list.add(subscriber(i, i == oddMember ? all.subList(0, 1) : all, racks));
        }
        return AssignmentProblem.of(new GroupSpec(list), describer);
    }

    /** Every fourth member reads the first half of the topics, the others the second half. */
    private static AssignmentProblem halves(int topicCount, int shards, int members) {
        ShardDescriber describer = topics(topicCount, shards, false);
        List<String> all = new ArrayList<>(describer.streams().keySet());
        List<MemberSubscription> list = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            list.add(subscriber(i, i % 4 == 0 ? all.subList(0, topicCount / 2) : all.subList(topicCount / 2, topicCount),
                    false));
        }
        return AssignmentProblem.of(new GroupSpec(list), describer);
    }

    /** Members but the first own what our sticky assignor gave them, in generation 1. */
    static AssignmentProblem rebalanced(AssignmentProblem fresh) {
        GroupAssignment first = new StickyAssignor().assign(fresh.group(), fresh.shards());
        List<MemberSubscription> list = new ArrayList<>();
        List<MemberSubscription> members = fresh.group().members();
        for (int i = 0; i < members.size(); i++) {
            MemberSubscription m = members.get(i);
            list.add(i == 0 ? m : m.withOwned(first.member(m.memberId()).shards(), 1));
        }
        return AssignmentProblem.of(new GroupSpec(list), fresh.shards());
    }

    private static AssignmentProblem randomLeaving() {
        Random random = new Random(42);
        int topicCount = 40;
        int members = 200;
        Map<String, StreamDescription> streams = new TreeMap<>();
        for (int t = 0; t < topicCount; t++) {
            streams.put(topic(t), StreamDescription.of(topic(t), random.nextInt(10) + 1));
        }
        List<MemberSubscription> list = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            Set<String> topics = new TreeSet<>();
            for (int j = 0; j < random.nextInt(20); j++) {
                topics.add(topic(random.nextInt(topicCount)));
            }
            list.add(MemberSubscription.of(member(i), topics));
        }
        ShardDescriber describer = ShardDescriber.of(streams);
        AssignmentProblem before = rebalanced(AssignmentProblem.of(new GroupSpec(list), describer));
        Set<String> leaving = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            leaving.add(member(random.nextInt(members)));
        }
        List<MemberSubscription> staying = new ArrayList<>();
        for (MemberSubscription m : before.group().members()) {
            if (!leaving.contains(m.memberId())) {
                staying.add(m);
            }
        }
        return AssignmentProblem.of(new GroupSpec(staying), describer);
    }

    /**
     * {@code ClientSideAssignorBenchmark}: {@code members * 50} shards over 100 topics; homogeneous members read
     * every topic, heterogeneous member {@code i} reads topics {@code i % 100} and {@code (i + 1) % 100} (what
     * Kafka's benchmark means to build). Incremental: the first {@code members - 1} own what our sticky gave them
     * (no generation, as in Kafka's benchmark) and a new member reading every topic joins.
     */
    private static AssignmentProblem clientSide(int members, boolean heterogeneous, boolean incremental) {
        return clientSide(members, PARTITIONS_PER_MEMBER, heterogeneous, incremental);
    }

    /** Kafka's {@code ClientSideAssignorBenchmark}: 100 topics, {@code ratio} partitions per member in all. */
    private static AssignmentProblem clientSide(int members, int ratio, boolean heterogeneous, boolean incremental) {
        int perTopic = members * ratio / CLIENT_SIDE_TOPICS;
        ShardDescriber describer = topics(CLIENT_SIDE_TOPICS, perTopic, false);
        List<String> all = new ArrayList<>(describer.streams().keySet());
        int existing = incremental ? members - 1 : members;
        List<MemberSubscription> list = new ArrayList<>();
        for (int i = 0; i < existing; i++) {
            List<String> topics = heterogeneous
                    ? List.of(all.get(i % CLIENT_SIDE_TOPICS), all.get((i + 1) % CLIENT_SIDE_TOPICS)) : all;
            list.add(MemberSubscription.of(member(i), topics));
        }
        if (!incremental) {
            return AssignmentProblem.of(new GroupSpec(list), describer);
        }
        GroupAssignment first = new StickyAssignor().assign(new GroupSpec(list), describer);
        List<MemberSubscription> next = new ArrayList<>();
        for (MemberSubscription m : list) {
            next.add(m.withOwned(first.member(m.memberId()).shards(), MemberSubscription.DEFAULT_GENERATION));
        }
        next.add(MemberSubscription.of("newMember", all));
        return AssignmentProblem.of(new GroupSpec(next), describer);
    }
}
