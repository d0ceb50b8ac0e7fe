package io.shardline.coordinator.assignor.testing;

import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.StreamDescription;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Seeded random assignment problems. Every problem comes from one {@code long} seed, so a failing problem is
 * reproduced by {@code RandomProblems.generate(seed, shape)}; tests print the base seed of a run.
 *
 * <p>What a problem may contain: streams with 0 or more shards (sometimes all with the same count, which
 * exercises the range assignor's co-partitioning); members with and without static instance ids, listed in
 * random order; racks on members only, on shards only, on both (overlapping, disjoint, or the same racks for
 * every shard); identical or differing subscriptions; previous ownership after members joined and left, with
 * owners at older generations, shards owned outside the current subscription, and duplicate claims at equal
 * and different generations. Owned shards always exist. Instance ids are distinct.
 */
public final class RandomProblems {

    private enum RackMode { NONE, MEMBERS_ONLY, SHARDS_ONLY, OVERLAPPING, DISJOINT, UNIFORM_SHARDS }

    private static final String UNKNOWN_STREAM = "ghost";

    private RandomProblems() {
    }

    /** The problem of {@code seed}. */
    public static AssignmentProblem generate(long seed, ProblemShape shape) {
        return new Generation(new SplittableRandom(seed), shape).problem(seed);
    }

    /** A stream name for index {@code i}; not zero-padded on purpose, so that "t10" sorts before "t2". */
    static String streamName(int i) {
        return "t" + i;
    }

    /** The state of generating one problem. */
    private static final class Generation {
        private final SplittableRandom rnd;
        private final ProblemShape shape;
        private final RackMode rackMode;
        private final int rackCount;

        Generation(SplittableRandom rnd, ProblemShape shape) {
            this.rnd = rnd;
            this.shape = shape;
            this.rackCount = 1 + rnd.nextInt(shape.maxRacks());
            if (rnd.nextDouble() < shape.rackChance()) {
                RackMode[] withRacks = {RackMode.MEMBERS_ONLY, RackMode.SHARDS_ONLY, RackMode.OVERLAPPING,
                    RackMode.OVERLAPPING, RackMode.OVERLAPPING, RackMode.DISJOINT, RackMode.UNIFORM_SHARDS};
                this.rackMode = withRacks[rnd.nextInt(withRacks.length)];
            } else {
                this.rackMode = RackMode.NONE;
            }
        }

        AssignmentProblem problem(long seed) {
            ShardDescriber shards = streams();
            List<String> streamNames = new ArrayList<>(shards.streams().keySet());
            List<MemberSubscription> members = members(streamNames);
            if (!members.isEmpty() && rnd.nextDouble() < shape.previousOwnershipChance()) {
                members = withPreviousOwnership(members, shards);
            }
            return new AssignmentProblem(seed, new GroupSpec(members), shards);
        }

        private ShardDescriber streams() {
            int streamCount = 1 + rnd.nextInt(shape.maxStreams());
            boolean equalCounts = rnd.nextDouble() < shape.equalShardCountChance();
            int commonCount = 1 + rnd.nextInt(shape.maxShards());
            TreeMap<String, StreamDescription> streams = new TreeMap<>();
            for (int i = 0; i < streamCount; i++) {
                String name = streamName(i);
                int count;
                if (rnd.nextDouble() < shape.zeroShardChance()) {
                    count = 0;
                } else {
                    count = equalCounts ? commonCount : 1 + rnd.nextInt(shape.maxShards());
                }
                streams.put(name, new StreamDescription(name, count, shardRacks(count)));
            }
            return new ShardDescriber(streams);
        }

        private List<Set<String>> shardRacks(int count) {
            boolean shardsHaveRacks = rackMode == RackMode.SHARDS_ONLY || rackMode == RackMode.OVERLAPPING
                    || rackMode == RackMode.DISJOINT || rackMode == RackMode.UNIFORM_SHARDS;
            if (!shardsHaveRacks || count == 0) {
                return List.of();
            }
            List<Set<String>> racks = new ArrayList<>(count);
            if (rackMode == RackMode.UNIFORM_SHARDS) {
                Set<String> all = randomRacks(1 + rnd.nextInt(rackCount));
                for (int i = 0; i < count; i++) {
                    racks.add(all);
                }
                return racks;
            }
            for (int i = 0; i < count; i++) {
                int n = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(Math.min(3, rackCount));
                racks.add(randomRacks(n));
            }
            return racks;
        }

        private Set<String> randomRacks(int n) {
            Set<String> racks = new TreeSet<>();
            while (racks.size() < n) {
                racks.add("r" + rnd.nextInt(rackCount));
            }
            return racks;
        }

        private List<MemberSubscription> members(List<String> streamNames) {
            int count = rnd.nextInt(50) == 0 ? 0 : 1 + rnd.nextInt(shape.maxMembers());
            boolean identical = rnd.nextDouble() < shape.identicalSubscriptionChance();
            Set<String> common = randomSubscription(streamNames);
            Set<String> instanceIds = new HashSet<>();
            List<MemberSubscription> members = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String memberId = "c-" + Integer.toString(rnd.nextInt(1 << 16), 36) + "-" + i;
                Set<String> subscription = identical ? common : randomSubscription(streamNames);
                MemberSubscription m = MemberSubscription.of(memberId, subscription);
                if (rnd.nextDouble() < shape.instanceIdChance()) {
                    String instanceId;
                    do {
                        instanceId = "i-" + Integer.toString(rnd.nextInt(1 << 16), 36);
                    } while (!instanceIds.add(instanceId));
                    m = m.withInstanceId(instanceId);
                }
                m = m.withRack(memberRack());
                members.add(m);
            }
            return members;
        }

        private Set<String> randomSubscription(List<String> streamNames) {
            Set<String> subscription = new TreeSet<>();
            for (String s : streamNames) {
                if (rnd.nextBoolean()) {
                    subscription.add(s);
                }
            }
            if (subscription.isEmpty() && rnd.nextInt(20) != 0) {
                subscription.add(streamNames.get(rnd.nextInt(streamNames.size())));
            }
            if (rnd.nextDouble() < shape.unknownStreamChance()) {
                subscription.add(UNKNOWN_STREAM);
            }
            return subscription;
        }

        private String memberRack() {
            return switch (rackMode) {
                case NONE, SHARDS_ONLY -> null;
                case DISJOINT -> "x" + rnd.nextInt(rackCount);
                default -> rnd.nextInt(8) == 0 ? null : "r" + rnd.nextInt(rackCount);
            };
        }

        /**
         * Simulates the previous generation: a previous member set (some of today's members are new, some
         * previous members left), a previous assignment over it (balanced or random), generations per member,
         * and duplicate claims.
         */
        private List<MemberSubscription> withPreviousOwnership(List<MemberSubscription> members, ShardDescriber shards) {
            int n = members.size();
            int left = rnd.nextInt(3);
            List<Integer> previous = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (rnd.nextInt(4) != 0) {
                    previous.add(i);
                }
            }
            int previousSize = previous.size() + left;
            if (previousSize == 0) {
                return members;
            }
            List<Map<String, List<Integer>>> owned = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                owned.add(new TreeMap<>());
            }
            boolean balanced = rnd.nextBoolean();
            for (StreamDescription s : shards.streams().values()) {
                for (int shard = 0; shard < s.shardCount(); shard++) {
                    int slot = balanced ? shard % previousSize : rnd.nextInt(previousSize);
                    if (slot < previous.size() && rnd.nextInt(10) != 0) {
                        owned.get(previous.get(slot)).computeIfAbsent(s.name(), k -> new ArrayList<>()).add(shard);
                    }
                }
            }
            if (rnd.nextDouble() < shape.duplicateClaimChance()) {
                addDuplicateClaims(owned, shards);
            }
            int generation = 2 + rnd.nextInt(10);
            List<MemberSubscription> result = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                Map<String, List<Integer>> mine = owned.get(i);
                int memberGeneration = switch (rnd.nextInt(6)) {
                    case 0 -> generation - 1 - rnd.nextInt(2);
                    case 1 -> MemberSubscription.DEFAULT_GENERATION;
                    default -> generation;
                };
                TreeMap<String, ShardSet> sets = new TreeMap<>();
                mine.forEach((stream, list) -> sets.put(stream, ShardSet.of(list)));
                if (sets.isEmpty() && rnd.nextBoolean()) {
                    result.add(members.get(i));
                } else {
                    result.add(members.get(i).withOwned(sets, memberGeneration));
                }
            }
            return result;
        }

        private void addDuplicateClaims(List<Map<String, List<Integer>>> owned, ShardDescriber shards) {
            List<StreamDescription> nonEmpty = shards.streams().values().stream()
                    .filter(s -> s.shardCount() > 0).toList();
            if (nonEmpty.isEmpty()) {
                return;
            }
            int claims = 1 + rnd.nextInt(4);
            for (int c = 0; c < claims; c++) {
                StreamDescription s = nonEmpty.get(rnd.nextInt(nonEmpty.size()));
                int shard = rnd.nextInt(s.shardCount());
                Map<String, List<Integer>> claimer = owned.get(rnd.nextInt(owned.size()));
                List<Integer> list = claimer.computeIfAbsent(s.name(), k -> new ArrayList<>());
                if (!list.contains(shard)) {
                    list.add(shard);
                }
            }
        }
    }

    /** The base seed of a CI run: fixed, so that the build is deterministic and a failure replays as is. */
    public static final long DEFAULT_BASE_SEED = 20261129L;

    /**
     * The seed a test run starts from: {@code -Dshardline.seed=N} when given, {@code -Dshardline.seed=random} for a
     * fresh one per run (to explore new problems), otherwise {@link #DEFAULT_BASE_SEED}. Callers print it so that a
     * failure can be replayed.
     */
    public static long baseSeed() {
        String configured = System.getProperty("shardline.seed");
        if (configured == null || configured.isBlank()) {
            return DEFAULT_BASE_SEED;
        }
        if (configured.trim().equals("random")) {
            return new SplittableRandom().nextLong();
        }
        return Long.parseLong(configured.trim());
    }
}
