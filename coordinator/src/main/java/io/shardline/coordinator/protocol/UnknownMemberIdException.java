package io.shardline.coordinator.protocol;

/** The coordinator does not know the member id. Answered with {@link ErrorCode#UNKNOWN_MEMBER_ID}. */
public class UnknownMemberIdException extends CoordinatorException {

    private static final long serialVersionUID = 1L;

    /** With a message naming the values involved and the remedy. */
    public UnknownMemberIdException(String message) {
        super(ErrorCode.UNKNOWN_MEMBER_ID, message);
    }
}
