package io.shardline.coordinator.protocol;

/** The request is malformed; the message names the field and the value. Answered with {@link ErrorCode#INVALID_REQUEST}. */
public class InvalidRequestException extends CoordinatorException {

    private static final long serialVersionUID = 1L;

    /** With a message naming the field, the value and what was expected. */
    public InvalidRequestException(String message) {
        super(ErrorCode.INVALID_REQUEST, message);
    }
}
