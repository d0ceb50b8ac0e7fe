package io.shardline.runtime.shard;

import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.ShardId;
import io.vertx.core.Promise;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state of one shard a member owns: its phase (changed only by {@link #transitionTo}), read
 * cursor, the batch in flight, scheduling flags and the release promise. Touched only on the member's
 * context, except {@link #phase()} which is also read from I/O callbacks (volatile).
 */
final class OwnedShard implements ShardContext {

    private static final Logger LOG = LoggerFactory.getLogger(OwnedShard.class);

    private final ShardId shard;
    private final long ownerEpoch;
    private final HandlerContext handlerContext;
    private volatile ShardPhase phase = ShardPhase.TAKING_OVER;

    /** Takeover cursor (XAUTOCLAIM), then PEL cursor while replaying. */
    String cursor = "0-0";
    /** The id to wake up from while idle (the top id the last empty read saw). */
    String wakeId = "0-0";
    /** The batch in flight, or null. */
    BatchRun batch;
    /**
     * The last read of new entries came back with few of them ({@link ShardCommands#smallRead}): the shard keeps up,
     * so its next read takes the one-round-trip script (see {@link ShardCommands#ackAndRead}).
     */
    boolean keepingUp;
    /** Ids whose handling succeeded but whose ack has not gone through yet (retried before anything else). */
    java.util.List<String> unacked = java.util.List.of();
    /** In the ready queue. */
    boolean queued;
    /** A step runs on a local worker. */
    boolean stepping;
    /** The shard's step holds one of the member's local workers (its handler call runs or is about to). */
    boolean holdsWorker;
    /** The ack-linger timer of an idle shard holding a handled batch's acknowledgement, or -1. */
    long lingerTimerId = -1;
    /** The {@link ReadPriority} ticket of the keeping-up read this shard's step is doing, or -1. */
    long readTicket = -1;
    /** A wake-up came while the shard was not idle (its linger ran out meanwhile): read again before idling. */
    boolean rereadOnEmpty;
    /** Registered with the wake-up read. */
    boolean idle;
    /** Paused by {@code pause(shard)}. */
    boolean paused;
    /** A retry or error backoff timer is pending. */
    long timerId = -1;
    /** The member's lease was seen lapsed (logged once). */
    boolean leaseLapsed;
    /** Consecutive Redis failures, for the error backoff. */
    int redisFailures;
    /** Completed when the shard is released (or fenced while releasing). */
    Promise<Void> released;

    OwnedShard(ShardId shard, long ownerEpoch, HandlerContext handlerContext) {
        this.shard = shard;
        this.ownerEpoch = ownerEpoch;
        this.handlerContext = handlerContext;
    }

    @Override
    public ShardId shard() {
        return shard;
    }

    @Override
    public long ownerEpoch() {
        return ownerEpoch;
    }

    @Override
    public HandlerContext handlerContext() {
        return handlerContext;
    }

    ShardPhase phase() {
        return phase;
    }

    /**
     * The one place the phase changes: checks the edge and logs member, shard, epoch and reason.
     *
     * @throws IllegalStateException on an edge {@link ShardPhase} does not allow
     */
    void transitionTo(ShardPhase next, String reason) {
        if (!next.previousValidPhases().contains(phase)) {
            throw new IllegalStateException("shard " + shard + " of member " + handlerContext.memberId()
                    + ": illegal transition " + phase + " -> " + next + " (" + reason + ")");
        }
        LOG.info("member {} shard {} epoch {}: {} -> {} ({})", handlerContext.memberId(), shard, ownerEpoch, phase, next, reason);
        phase = next;
    }

    @Override
    public String toString() {
        return shard + "@" + ownerEpoch + "[" + phase + "]";
    }
}
