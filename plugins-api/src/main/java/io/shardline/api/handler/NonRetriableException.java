package io.shardline.api.handler;

/**
 * Thrown by a handler to say that the record can never be processed (it is malformed, it violates a
 * rule): the runtime does not retry it, writes it to the dead-letter stream with this exception's message
 * and acknowledges it. In a batch that fails this way the runtime first isolates the failing record (see
 * {@link SyncHandler}), so the other records of the batch are still handled.
 */
public class NonRetriableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A permanent failure with a message. */
    public NonRetriableException(String message) {
        super(message);
    }

    /** A permanent failure with a message and a cause. */
    public NonRetriableException(String message, Throwable cause) {
        super(message, cause);
    }
}
