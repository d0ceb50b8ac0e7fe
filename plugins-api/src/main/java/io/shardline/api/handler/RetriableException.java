package io.shardline.api.handler;

/**
 * Thrown by a handler to say the failure is transient (a timeout, an unavailable service): the runtime
 * retries the batch with exponential backoff, up to {@code max.attempts}, then dead-letters it. Any
 * exception other than {@link NonRetriableException} is treated the same way; this type just says so.
 */
public class RetriableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A transient failure with a message. */
    public RetriableException(String message) {
        super(message);
    }

    /** A transient failure with a message and a cause. */
    public RetriableException(String message, Throwable cause) {
        super(message, cause);
    }
}
