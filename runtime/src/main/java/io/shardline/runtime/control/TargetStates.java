package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.rest.entity.TargetState;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A snapshot of the cluster's persisted target states: per listener its {@link TargetState} (absent =
 * {@link TargetState#STARTED}) and its paused shards. Immutable.
 *
 * @param revision the control revision it was read at (0 before the first write)
 * @param listeners listener name to target state, for listeners that have one stored
 * @param pausedShards listener name to its paused shards, for listeners with any
 */
public record TargetStates(long revision, Map<String, TargetState> listeners, Map<String, Set<ShardId>> pausedShards) {

    /** No target state stored at all. */
    public static final TargetStates EMPTY = new TargetStates(0, Map.of(), Map.of());

    /** Copies (sorted). */
    public TargetStates {
        listeners = java.util.Collections.unmodifiableMap(new TreeMap<>(listeners));
        Map<String, Set<ShardId>> copy = new TreeMap<>();
        pausedShards.forEach((k, v) -> {
            if (!v.isEmpty()) {
                copy.put(k, java.util.Collections.unmodifiableSortedSet(new TreeSet<>(v)));
            }
        });
        pausedShards = java.util.Collections.unmodifiableMap(copy);
    }

    /** The target state of {@code listener} ({@link TargetState#STARTED} when none is stored). */
    public TargetState targetState(String listener) {
        return listeners.getOrDefault(Objects.requireNonNull(listener, "listener"), TargetState.STARTED);
    }

    /** The paused shards of {@code listener}, sorted; empty when none. */
    public SortedSet<ShardId> pausedShards(String listener) {
        Set<ShardId> shards = pausedShards.get(listener);
        return shards == null ? java.util.Collections.emptySortedSet() : (SortedSet<ShardId>) shards;
    }
}
