package io.shardline.runtime.reshard;

/** A change or rollback that cannot start now; the message says why and what to do. */
public final class ReshardRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why it is refused. */
    public enum Reason {
        /** The count is not a valid shard count (400). */
        BAD_COUNT,
        /** Another change runs, the count is unchanged, or there is nothing to roll back (409). */
        CONFLICT
    }

    private final Reason reason;

    /** With {@code reason} and the message for the operator. */
    public ReshardRefusedException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    /** Why. */
    public Reason reason() {
        return reason;
    }
}
