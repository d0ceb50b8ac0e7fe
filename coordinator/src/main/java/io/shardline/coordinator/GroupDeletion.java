package io.shardline.coordinator;

import java.util.List;
import java.util.Objects;

/**
 * The answer to {@link GroupCoordinator#deleteGroup}. Immutable.
 *
 * @param outcome what happened
 * @param members the members that keep the group alive (a static member's reservation counts), sorted; empty
 *     unless {@code outcome} is {@link Outcome#HAS_MEMBERS}
 */
public record GroupDeletion(Outcome outcome, List<String> members) {

    /** What a deletion did. */
    public enum Outcome {
        /** The group was deleted (its tombstone is in the result's records). */
        DELETED,
        /** The coordinator does not know the group. */
        NOT_FOUND,
        /** The group still has members; nothing changed. */
        HAS_MEMBERS
    }

    /** Validates and copies. */
    public GroupDeletion {
        Objects.requireNonNull(outcome, "outcome");
        members = List.copyOf(members);
    }
}
