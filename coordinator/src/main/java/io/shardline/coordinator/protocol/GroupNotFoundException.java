package io.shardline.coordinator.protocol;

/** The group is not configured on this coordinator. Answered with {@link ErrorCode#GROUP_NOT_FOUND}. */
public class GroupNotFoundException extends CoordinatorException {

    private static final long serialVersionUID = 1L;

    /** With a message naming the values involved and the remedy. */
    public GroupNotFoundException(String message) {
        super(ErrorCode.GROUP_NOT_FOUND, message);
    }
}
