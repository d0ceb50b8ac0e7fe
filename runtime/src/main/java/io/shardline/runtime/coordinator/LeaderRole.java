package io.shardline.runtime.coordinator;

import java.util.EnumSet;
import java.util.Set;

/**
 * The role of a worker's coordinator host. Leadership is the leader epoch in Redis, not the cluster view
 * ({@link LeaderSuccession}); every change goes through {@link LeaderRoleMachine}'s one gate, which refuses edges not
 * listed in {@link #previousValidStates()} (as {@code coordinator.member.MembershipState} does for a member):
 *
 * <pre>
 *   FOLLOWER --in line / hand-over asked--> CLAIMING --claim won--> LEADER
 *   DEPOSED  --in line / hand-over asked--> CLAIMING --claim refused--> FOLLOWER
 *   CLAIMING --hand-over asked--> CLAIMING (a new term)
 *   LEADER --write refused: newer leader epoch--> DEPOSED
 *   LEADER --handed over to the view's oldest / write failed--> FOLLOWER (then CLAIMING again after a failed write)
 *   DEPOSED --handed over to the view's oldest--> FOLLOWER
 *   any --this worker stops--> RESIGNED (terminal)
 * </pre>
 */
public enum LeaderRole {

    /** Follows the holder of the leader epoch; answers {@code NOT_COORDINATOR} naming it; watches it every tick. */
    FOLLOWER,
    /** Takes the next leader epoch (replay, then the claim script); answers {@code NOT_COORDINATOR} meanwhile. */
    CLAIMING,
    /** Holds the leader epoch and runs the coordinator: decides, writes under the epoch, then answers. */
    LEADER,
    /** Was refused a write for a newer leader epoch: follows the new holder and claims only when in line again. */
    DEPOSED,
    /** This worker stops: it never claims again (terminal). */
    RESIGNED;

    /** The roles this role may be entered from. */
    public Set<LeaderRole> previousValidStates() {
        return switch (this) {
            case FOLLOWER -> EnumSet.of(CLAIMING, LEADER, DEPOSED);
            case CLAIMING -> EnumSet.of(FOLLOWER, DEPOSED, CLAIMING);
            case LEADER -> EnumSet.of(CLAIMING);
            case DEPOSED -> EnumSet.of(LEADER);
            case RESIGNED -> EnumSet.allOf(LeaderRole.class);
        };
    }
}
