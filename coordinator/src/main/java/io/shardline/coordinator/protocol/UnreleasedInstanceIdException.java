package io.shardline.coordinator.protocol;

/** Another live member holds the static instance id. Answered with {@link ErrorCode#UNRELEASED_INSTANCE_ID}. */
public class UnreleasedInstanceIdException extends CoordinatorException {

    private static final long serialVersionUID = 1L;

    /** With a message naming the values involved and the remedy. */
    public UnreleasedInstanceIdException(String message) {
        super(ErrorCode.UNRELEASED_INSTANCE_ID, message);
    }
}
