package io.shardline.coordinator.protocol;

import java.util.Objects;

/**
 * A request the coordinator refuses, with the {@link ErrorCode} the member gets. Handlers throw subclasses;
 * one edge ({@link #errorCodeOf(Throwable)}) maps them to the wire code.
 */
public class CoordinatorException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ErrorCode errorCode;

    /** An exception answered with {@code errorCode}. */
    public CoordinatorException(ErrorCode errorCode, String message) {
        super(message);
        this.errorCode = Objects.requireNonNull(errorCode, "errorCode");
    }

    /** The code the member gets. */
    public ErrorCode errorCode() {
        return errorCode;
    }

    /** The wire code for {@code t}: its own code for a coordinator exception, else {@code INVALID_REQUEST}. */
    public static ErrorCode errorCodeOf(Throwable t) {
        return t instanceof CoordinatorException ce ? ce.errorCode() : ErrorCode.INVALID_REQUEST;
    }
}
