package io.shardline.coordinator.protocol;

/** The member's ownership report claims shards that are not its own. Answered with {@link ErrorCode#INVALID_OWNERSHIP}. */
public class InvalidOwnershipException extends CoordinatorException {

    private static final long serialVersionUID = 1L;

    /** With a message naming the values involved and the remedy. */
    public InvalidOwnershipException(String message) {
        super(ErrorCode.INVALID_OWNERSHIP, message);
    }
}
