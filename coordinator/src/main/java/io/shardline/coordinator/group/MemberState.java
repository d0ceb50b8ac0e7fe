package io.shardline.coordinator.group;

/**
 * The coordinator's view of where a member is in reconciling its current assignment with its target. The state
 * follows from the member's sets (see {@link io.shardline.coordinator.assignment.CurrentAssignmentBuilder}); it
 * is persisted by name, and a name this version does not know reads as {@link #UNKNOWN}.
 */
public enum MemberState {

    /** assigned = target, nothing revoking, nothing pending. */
    STABLE,
    /** The member must give back shards (revoking is not empty); it gets nothing new until it did. */
    UNREVOKED_SHARDS,
    /** Shards of the member's target are still held by their previous owner (pending is not empty). */
    UNRELEASED_SHARDS,
    /** A static member left temporarily: its target stays reserved until its session timeout passes. */
    LEFT_STATIC,
    /** A persisted state this version does not know. */
    UNKNOWN;

    /** The state named {@code name}, or {@link #UNKNOWN}. */
    public static MemberState fromName(String name) {
        for (MemberState s : values()) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return UNKNOWN;
    }
}
