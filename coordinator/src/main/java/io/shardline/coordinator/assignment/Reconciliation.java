package io.shardline.coordinator.assignment;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.Member;
import java.util.Collections;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one reconciliation step decided for one member. Immutable.
 *
 * @param member the member after the step
 * @param released shards the member gave back in this step (revoke accepted), with the owner epoch they had
 * @param granted shards given to the member in this step, with their new owner epochs
 * @param newlyRevoking shards taken from the member's assigned set in this step (it must now revoke them)
 */
public record Reconciliation(
        Member member,
        SortedMap<ShardId, Integer> released,
        SortedMap<ShardId, Integer> granted,
        SortedSet<ShardId> newlyRevoking) {

    /** Copies. */
    public Reconciliation {
        released = Collections.unmodifiableSortedMap(new TreeMap<>(released));
        granted = Collections.unmodifiableSortedMap(new TreeMap<>(granted));
        newlyRevoking = Collections.unmodifiableSortedSet(new TreeSet<>(newlyRevoking));
    }

    /** A step that changed nothing. */
    public static Reconciliation unchanged(Member member) {
        return new Reconciliation(member, new TreeMap<>(), new TreeMap<>(), new TreeSet<>());
    }
}
