package io.shardline.coordinator.protocol;

/** The member applied an assignment epoch the coordinator never issued. Answered with {@link ErrorCode#STALE_ASSIGNMENT_EPOCH}. */
public class StaleAssignmentEpochException extends CoordinatorException {

    private static final long serialVersionUID = 1L;

    /** With a message naming the values involved and the remedy. */
    public StaleAssignmentEpochException(String message) {
        super(ErrorCode.STALE_ASSIGNMENT_EPOCH, message);
    }
}
