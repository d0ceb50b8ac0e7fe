package io.shardline.coordinator.assignor.testing;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.StreamDescription;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What every assignment must satisfy, and the measures assignors are compared by (balance, moves). JDK only
 * (benchmarks use it too); failures are {@link AssertionError}s that include the problem.
 *
 * <p>Validity: every member of the group appears; a shard goes only to a member subscribed to its stream, only
 * if it exists, and to at most one member; and (unless incomplete assignments are allowed, as for a
 * cooperative assignor withholding shards) every shard of a stream with at least one subscriber is assigned.
 */
public final class AssignmentChecks {

    private static final int MAX_REPORTED = 10;

    private AssignmentChecks() {
    }

    /** Asserts that {@code assignment} is a valid, complete answer to {@code problem}. */
    public static void assertValid(AssignmentProblem problem, GroupAssignment assignment) {
        throwIfAny(problem, violations(problem.group(), problem.shards(), assignment, true));
    }

    /** Asserts validity but allows shards to be left unassigned (cooperative assignors withhold moving shards). */
    public static void assertValidAllowingUnassigned(AssignmentProblem problem, GroupAssignment assignment) {
        throwIfAny(problem, violations(problem.group(), problem.shards(), assignment, false));
    }

    /** Asserts that {@code actual} equals {@code expected} member for member, naming the first differences. */
    public static void assertSameAssignment(AssignmentProblem problem, GroupAssignment expected, GroupAssignment actual) {
        if (expected.equals(actual)) {
            return;
        }
        List<String> diffs = new ArrayList<>();
        TreeSet<String> ids = new TreeSet<>(expected.members().keySet());
        ids.addAll(actual.members().keySet());
        for (String id : ids) {
            MemberAssignment e = expected.members().get(id);
            MemberAssignment a = actual.members().get(id);
            if (e == null || !e.equals(a)) {
                diffs.add(id + ": expected " + (e == null ? "<absent>" : e.shards())
                        + " but was " + (a == null ? "<absent>" : a.shards()));
            }
        }
        throwIfAny(problem, diffs);
    }

    /** The violations of validity; empty when valid. */
    public static List<String> violations(GroupSpec group, ShardDescriber shards, GroupAssignment assignment,
                                          boolean requireComplete) {
        List<String> problems = new ArrayList<>();
        Map<String, String[]> ownerOf = new HashMap<>();
        for (MemberSubscription m : group.members()) {
            if (!assignment.members().containsKey(m.memberId())) {
                problems.add("member " + m.memberId() + " is missing from the assignment");
            }
        }
        assignment.members().forEach((memberId, ma) -> {
            MemberSubscription m = group.member(memberId);
            if (m == null) {
                problems.add("assignment names unknown member " + memberId);
                return;
            }
            ma.shards().forEach((stream, set) -> {
                int count = shards.shardCount(stream);
                if (!m.subscriptions().contains(stream)) {
                    problems.add(memberId + " got " + stream + set + " but does not subscribe to " + stream);
                }
                if (count < 0) {
                    problems.add(memberId + " got shards of unknown stream " + stream);
                    return;
                }
                String[] owners = ownerOf.computeIfAbsent(stream, s -> new String[count]);
                for (int i = 0; i < set.size(); i++) {
                    int shard = set.get(i);
                    if (shard >= count) {
                        problems.add(memberId + " got " + stream + "[" + shard + "] but " + stream + " has "
                                + count + " shards");
                    } else if (owners[shard] != null) {
                        problems.add(stream + "[" + shard + "] given to both " + owners[shard] + " and " + memberId);
                    } else {
                        owners[shard] = memberId;
                    }
                }
            });
        });
        if (requireComplete) {
            for (StreamDescription s : shards.streams().values()) {
                boolean subscribed = group.members().stream().anyMatch(m -> m.subscriptions().contains(s.name()));
                if (!subscribed || s.shardCount() == 0) {
                    continue;
                }
                String[] owners = ownerOf.getOrDefault(s.name(), new String[s.shardCount()]);
                for (int i = 0; i < owners.length; i++) {
                    if (owners[i] == null) {
                        problems.add(s.name() + "[" + i + "] has subscribers but was not assigned");
                    }
                }
            }
        }
        return problems;
    }

    /** Largest minus smallest total shard count over all members (0 for an empty group). */
    public static int spread(GroupAssignment assignment) {
        int[] counts = counts(assignment);
        return counts.length == 0 ? 0 : counts[counts.length - 1] - counts[0];
    }

    /**
     * The largest spread (max minus min total shard count) within any set of members with identical
     * subscriptions; a balanced assignor keeps this at most 1 (when such members can all take any shard).
     */
    public static int maxSpreadAmongIdenticalSubscriptions(GroupSpec group, GroupAssignment assignment) {
        Map<SortedSet<String>, int[]> minMax = new HashMap<>();
        for (MemberSubscription m : group.members()) {
            int n = assignment.member(m.memberId()).size();
            int[] mm = minMax.computeIfAbsent(m.subscriptions(), k -> new int[] {Integer.MAX_VALUE, Integer.MIN_VALUE});
            mm[0] = Math.min(mm[0], n);
            mm[1] = Math.max(mm[1], n);
        }
        return minMax.values().stream().mapToInt(mm -> mm[1] - mm[0]).max().orElse(0);
    }

    /**
     * Kafka's balance score ({@code AbstractStickyAssignor}'s): the sum over all pairs of members of the
     * difference of their shard counts. 0 means perfectly even; lower is better.
     */
    public static long balanceScore(GroupAssignment assignment) {
        int[] counts = counts(assignment);
        long score = 0;
        int n = counts.length;
        for (int k = 0; k < n; k++) {
            score += (long) counts[k] * (2L * k - n + 1);
        }
        return score;
    }

    /**
     * Number of shards given to a member other than their previous owner. The previous owner of a shard is the
     * member claiming it with the highest generation; when two or more members claim it at that generation
     * the claim is void (as in Kafka). Shards without a previous owner, or left unassigned, are not moves.
     */
    public static long moves(GroupSpec group, GroupAssignment assignment) {
        Map<String, int[]> owner = previousOwners(group);
        List<MemberSubscription> members = group.members();
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < members.size(); i++) {
            index.put(members.get(i).memberId(), i);
        }
        long moves = 0;
        for (Map.Entry<String, MemberAssignment> e : assignment.members().entrySet()) {
            Integer me = index.get(e.getKey());
            for (Map.Entry<String, ShardSet> s : e.getValue().shards().entrySet()) {
                int[] owners = owner.get(s.getKey());
                if (owners == null) {
                    continue;
                }
                ShardSet set = s.getValue();
                for (int i = 0; i < set.size(); i++) {
                    int shard = set.get(i);
                    if (shard < owners.length && owners[shard] >= 0 && (me == null || owners[shard] != me)) {
                        moves++;
                    }
                }
            }
        }
        return moves;
    }

    /** Per stream, per shard: the index (in {@code group.members()}) of its previous owner, or -1 (none or void). */
    public static Map<String, int[]> previousOwners(GroupSpec group) {
        Map<String, int[]> owner = new HashMap<>();
        Map<String, int[]> ownerGeneration = new HashMap<>();
        List<MemberSubscription> members = group.members();
        for (int mi = 0; mi < members.size(); mi++) {
            MemberSubscription m = members.get(mi);
            for (Map.Entry<String, ShardSet> e : m.owned().entrySet()) {
                int size = e.getValue().max() + 1;
                int[] o = grow(owner, e.getKey(), size, -1);
                int[] g = grow(ownerGeneration, e.getKey(), size, Integer.MIN_VALUE);
                ShardSet set = e.getValue();
                for (int i = 0; i < set.size(); i++) {
                    int shard = set.get(i);
                    if (m.generation() > g[shard]) {
                        g[shard] = m.generation();
                        o[shard] = mi;
                    } else if (m.generation() == g[shard]) {
                        o[shard] = -1;
                    }
                }
            }
        }
        return owner;
    }

    private static int[] grow(Map<String, int[]> map, String stream, int size, int fill) {
        int[] a = map.get(stream);
        if (a == null || a.length < size) {
            int old = a == null ? 0 : a.length;
            a = a == null ? new int[size] : Arrays.copyOf(a, size);
            Arrays.fill(a, old, size, fill);
            map.put(stream, a);
        }
        return a;
    }

    private static int[] counts(GroupAssignment assignment) {
        int[] counts = assignment.members().values().stream().mapToInt(MemberAssignment::size).toArray();
        Arrays.sort(counts);
        return counts;
    }

    private static void throwIfAny(AssignmentProblem problem, List<String> problems) {
        if (problems.isEmpty()) {
            return;
        }
        StringBuilder sb = new StringBuilder();
        sb.append(problems.size()).append(" problem(s) with the assignment of ").append(problem);
        problems.stream().limit(MAX_REPORTED).forEach(p -> sb.append("\n  - ").append(p));
        if (problems.size() > MAX_REPORTED) {
            sb.append("\n  ... and ").append(problems.size() - MAX_REPORTED).append(" more");
        }
        throw new AssertionError(sb.toString());
    }
}
