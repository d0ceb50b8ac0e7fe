package io.shardline.coordinator.assignor.testing;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.StreamDescription;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Small builders for hand-written expectations and problems in named tests (Kafka's {@code mkAssignment}
 * idea). Not thread-safe; build and throw away.
 *
 * <pre>{@code
 * GroupAssignment expected = Assignments.builder()
 *         .member("C0", "t0", 0, 1).member("C0", "t1", 0)
 *         .member("C1")
 *         .build();
 * StreamDescription t0 = Assignments.streamWithRacks("t0", "r0", "r1,r2", "");
 * }</pre>
 */
public final class Assignments {

    private final Map<String, Map<String, List<Integer>>> members = new TreeMap<>();

    private Assignments() {
    }

    /** A new, empty builder. */
    public static Assignments builder() {
        return new Assignments();
    }

    /** Adds {@code memberId} (with nothing, unless shards are added later). */
    public Assignments member(String memberId) {
        members.computeIfAbsent(memberId, k -> new TreeMap<>());
        return this;
    }

    /** Gives {@code shards} of {@code stream} to {@code memberId}. */
    public Assignments member(String memberId, String stream, int... shards) {
        List<Integer> list = members.computeIfAbsent(memberId, k -> new TreeMap<>())
                .computeIfAbsent(stream, k -> new ArrayList<>());
        for (int s : shards) {
            list.add(s);
        }
        return this;
    }

    /** The assignment. */
    public GroupAssignment build() {
        Map<String, MemberAssignment> result = new TreeMap<>();
        members.forEach((id, streams) -> {
            Map<String, ShardSet> sets = new TreeMap<>();
            streams.forEach((stream, shards) -> sets.put(stream, ShardSet.of(shards)));
            result.put(id, MemberAssignment.of(sets));
        });
        return GroupAssignment.of(result);
    }

    /**
     * A stream whose shard {@code i} lives on the racks in {@code racksPerShard[i]}, comma-separated
     * ({@code ""} for a shard without rack information).
     */
    public static StreamDescription streamWithRacks(String name, String... racksPerShard) {
        List<Set<String>> racks = new ArrayList<>();
        for (String csv : racksPerShard) {
            Set<String> set = new LinkedHashSet<>();
            for (String r : csv.split(",")) {
                if (!r.isBlank()) {
                    set.add(r.trim());
                }
            }
            racks.add(set);
        }
        return new StreamDescription(name, racksPerShard.length, racks);
    }
}
