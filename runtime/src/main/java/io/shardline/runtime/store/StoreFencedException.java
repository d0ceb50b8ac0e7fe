package io.shardline.runtime.store;

/**
 * Redis refused a group-metadata write: the writer's leader epoch is not the current one (a newer
 * leader exists) or its expected revision is stale. Nothing was written.
 */
public final class StoreFencedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Which guard failed. */
    public enum Kind {
        /** Another leader took a newer epoch: the writer is deposed and must step down. */
        STALE_LEADER_EPOCH,
        /** The revision moved (or the writer's view is old): reload before writing again. */
        REVISION_MISMATCH
    }

    private final Kind kind;
    private final long writerEpoch;
    private final long expectedRevision;
    private final long currentEpoch;
    private final long currentRevision;

    /** Creates the exception with what the writer sent and what Redis has. */
    public StoreFencedException(Kind kind, long writerEpoch, long expectedRevision, long currentEpoch, long currentRevision) {
        super("group metadata write refused (" + kind + "): writer leader epoch " + writerEpoch + ", expected revision "
                + expectedRevision + "; Redis has leader epoch " + currentEpoch + ", revision " + currentRevision,
                null, false, false);
        this.kind = kind;
        this.writerEpoch = writerEpoch;
        this.expectedRevision = expectedRevision;
        this.currentEpoch = currentEpoch;
        this.currentRevision = currentRevision;
    }

    /** Which guard failed. */
    public Kind kind() {
        return kind;
    }

    /** The writer's leader epoch. */
    public long writerEpoch() {
        return writerEpoch;
    }

    /** The revision the writer expected. */
    public long expectedRevision() {
        return expectedRevision;
    }

    /** The leader epoch in Redis. */
    public long currentEpoch() {
        return currentEpoch;
    }

    /** The revision in Redis. */
    public long currentRevision() {
        return currentRevision;
    }
}
