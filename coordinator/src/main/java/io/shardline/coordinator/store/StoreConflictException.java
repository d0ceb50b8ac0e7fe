package io.shardline.coordinator.store;

/**
 * A store write was refused: the writer's leader epoch is older than the store's (a deposed leader), or its
 * expected revision is not the store's (someone else wrote). Either way the writer must stop acting as the
 * coordinator and must not send the answer of the refused call.
 */
public class StoreConflictException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why the write was refused. */
    public enum Kind {
        /** The writer's leader epoch is not the store's current leader epoch. */
        STALE_LEADER_EPOCH,
        /** The writer's expected revision is not the store's revision. */
        REVISION_MISMATCH
    }

    private final Kind kind;
    private final long storeLeaderEpoch;
    private final long storeRevision;

    /** A refusal naming both sides' values. */
    public StoreConflictException(Kind kind, long writerLeaderEpoch, long expectedRevision, long storeLeaderEpoch,
            long storeRevision) {
        super("store write refused (" + kind + "): writer leader epoch " + writerLeaderEpoch + ", expected revision "
                + expectedRevision + "; store leader epoch " + storeLeaderEpoch + ", revision " + storeRevision);
        this.kind = kind;
        this.storeLeaderEpoch = storeLeaderEpoch;
        this.storeRevision = storeRevision;
    }

    /** Why the write was refused. */
    public Kind kind() {
        return kind;
    }

    /** The store's leader epoch at the time of the refusal. */
    public long storeLeaderEpoch() {
        return storeLeaderEpoch;
    }

    /** The store's revision at the time of the refusal. */
    public long storeRevision() {
        return storeRevision;
    }
}
