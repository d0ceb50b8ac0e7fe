package io.shardline.coordinator.protocol;

/** This process does not host the coordinator; the host throws it, never the core. Answered with {@link ErrorCode#NOT_COORDINATOR}. */
public class NotCoordinatorException extends CoordinatorException {

    private static final long serialVersionUID = 1L;

    /** With a message naming the values involved and the remedy. */
    public NotCoordinatorException(String message) {
        super(ErrorCode.NOT_COORDINATOR, message);
    }
}
