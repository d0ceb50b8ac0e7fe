package io.shardline.coordinator.group;

import java.util.Objects;

/**
 * The last failed run of a group's assignor (it threw, ran out of time, returned an invalid assignment, or
 * is not installed on the leader): the group stays on its previous target until a later run succeeds.
 * Immutable.
 *
 * @param timeMs the coordinator time of the failure
 * @param groupEpoch the group epoch the target was computed for
 * @param message what went wrong, naming the assignor and the group
 */
public record AssignorFailure(long timeMs, int groupEpoch, String message) {

    /** Validates. */
    public AssignorFailure {
        Objects.requireNonNull(message, "message");
    }
}
