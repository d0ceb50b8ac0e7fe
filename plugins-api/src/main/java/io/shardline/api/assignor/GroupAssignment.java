package io.shardline.api.assignor;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An assignor's answer: for every member of the group, the shards it should own. Immutable and thread-safe.
 *
 * @param members member id to its assignment, sorted by member id
 */
public record GroupAssignment(SortedMap<String, MemberAssignment> members) {

    /** Copies into an unmodifiable sorted map. */
    public GroupAssignment {
        members = Collections.unmodifiableSortedMap(new TreeMap<>(members));
    }

    /** An assignment from the given map. */
    public static GroupAssignment of(Map<String, MemberAssignment> members) {
        return new GroupAssignment(new TreeMap<>(members));
    }

    /** The assignment of {@code memberId}; empty when the member got nothing or is unknown. */
    public MemberAssignment member(String memberId) {
        return members.getOrDefault(memberId, MemberAssignment.EMPTY);
    }
}
