package io.shardline.coordinator.protocol;

/** The member's epoch is stale: it was fenced and must rejoin with epoch 0. Answered with {@link ErrorCode#FENCED_MEMBER_EPOCH}. */
public class FencedMemberEpochException extends CoordinatorException {

    private static final long serialVersionUID = 1L;

    /** With a message naming the values involved and the remedy. */
    public FencedMemberEpochException(String message) {
        super(ErrorCode.FENCED_MEMBER_EPOCH, message);
    }
}
