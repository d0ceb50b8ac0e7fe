package io.shardline.coordinator.protocol;

import java.util.Objects;

/**
 * The answer to a leave. Whatever the error, the member has left: it owns nothing and sends no more heartbeats.
 * Immutable.
 *
 * @param error the error, {@link ErrorCode#NONE} when the coordinator removed the member
 * @param errorMessage why not; empty on success
 */
public record LeaveResponse(ErrorCode error, String errorMessage) {

    /** The success answer. */
    public static final LeaveResponse OK = new LeaveResponse(ErrorCode.NONE, "");

    /** Validates. */
    public LeaveResponse {
        Objects.requireNonNull(error, "error");
        errorMessage = Objects.requireNonNullElse(errorMessage, "");
    }
}
