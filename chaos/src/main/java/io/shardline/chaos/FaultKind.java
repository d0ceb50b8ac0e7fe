package io.shardline.chaos;

/** The faults the chaos runner injects, and what the checker may tolerate after each. */
public enum FaultKind {
    /** {@code kill -9} of a worker that is not the leader. */
    KILL_WORKER(true, false),
    /** {@code kill -9} of the worker hosting the coordinator. */
    KILL_LEADER(true, false),
    /** {@code SIGSTOP} of a non-leader worker for 1.5 session timeouts, then {@code SIGCONT}. */
    PAUSE_WORKER(true, false),
    /** {@code SIGSTOP} of the leader for 1.5 session timeouts, then {@code SIGCONT}. */
    PAUSE_LEADER(true, false),
    /** {@code SIGTERM} of one worker (graceful stop: drain, report revoked), then start it again. */
    RESTART_WORKER(false, true),
    /** Graceful restart of every worker, one after the other. */
    ROLLING_RESTART(false, true),
    /** {@code kill -9} of redis-server (AOF, appendfsync always), then start it again on the same port. */
    KILL_REDIS(false, false),
    /**
     * A change of the stream's shard count through the operator's path ({@code POST /streams/{s}/reshard}), from
     * its start until the stream is {@code STABLE} again; the next fault hits while it runs. Scheduled by
     * {@code --reshards N}, not drawn from the weighted pool. A resharding moves shards gracefully: no duplicates.
     */
    RESHARD(false, true),
    /** A change of the shard count rolled back while it runs ({@code POST /streams/{s}/reshard/rollback}). */
    RESHARD_ROLLBACK(false, true);

    private final boolean ownerLoss;
    private final boolean graceful;

    FaultKind(boolean ownerLoss, boolean graceful) {
        this.ownerLoss = ownerLoss;
        this.graceful = graceful;
    }

    /** True when the target's shards are orphaned (crash or pause) and must fail over to a new owner epoch. */
    public boolean ownerLoss() {
        return ownerLoss;
    }

    /** True for the changes of the shard count, which {@code --reshards} schedules (see {@link ReshardFaults}). */
    public boolean reshard() {
        return this == RESHARD || this == RESHARD_ROLLBACK;
    }

    /** True for clean stops and reshardings: no record may be handled twice because of them. */
    public boolean graceful() {
        return graceful;
    }
}
