package io.shardline.runtime.shard;

import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.ShardId;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state of one shard a member owns: its {@link ShardPhase} and {@link ShardActivity} (changed only by
 * {@link #transition}, the one gate), its {@link Fence}, read cursor, the batch in flight and the data the
 * {@link ShardMachine} decides on. Written only by the member's {@link ShardMachine}, on the member's context;
 * {@link #phase()} is also read from other threads (volatile). Handlers see it as their {@link ShardContext}.
 */
final class OwnedShard implements ShardContext {

    private static final Logger LOG = LoggerFactory.getLogger(OwnedShard.class);

    private final Fence fence;
    private final HandlerContext handlerContext;
    private volatile ShardPhase phase = ShardPhase.TAKING_OVER;
    private ShardActivity activity = ShardActivity.STARTING;

    /** Takeover cursor (XAUTOCLAIM), then PEL cursor while replaying. */
    String cursor = "0-0";
    /** The id to wake up from while idle (the top id the last empty read saw). */
    String wakeId = "0-0";
    /** The batch in flight (or read ahead), or null. */
    BatchRun batch;
    /** The last read of new entries was small ({@link ShardCommands#smallRead}): the next read takes the script. */
    boolean keepingUp;
    /** Ids whose handling succeeded but whose ack has not gone through yet (sent before anything else). */
    List<String> unacked = List.of();
    /** The ack-linger timer of a {@link ShardActivity#LINGERING} shard, or -1. */
    long lingerTimerId = -1;
    /** The retry, backoff or lease-recheck timer of a {@link ShardActivity#WAITING} shard, or -1. */
    long timerId = -1;
    /** The {@link ReadPriority} ticket of the keeping-up read this shard's step is doing, or -1. */
    long readTicket = -1;
    /** A wake-up came while the shard was not idle (its linger ran out meanwhile): read again before idling. */
    boolean rereadOnEmpty;
    /**
     * Claimed by the read behind a wake-up read in flight ({@link ReadBehind}): that read is the shard's read in
     * flight, so it reads nothing else until its outcome landed.
     */
    boolean behindInFlight;
    /** Paused by {@code pause(shard)}. */
    boolean paused;
    /** The member's lease was seen lapsed (logged once). */
    boolean leaseLapsed;
    /** The resharding epoch whose cutover the shard waits at ({@link ShardPhase#AT_CUTOVER}), else 0. */
    long cutoverEpoch;
    /** When the shard started waiting at {@link #cutoverEpoch} (the machine's nano clock). */
    long cutoverSinceNanos;
    /**
     * The cutover of this shard that a resharding barrier of another shard waits for (the leader's watch hint), or
     * null: the member reports when its acknowledgement reaches it.
     */
    String drainWatch;
    /** The highest id this ownership acknowledged, or null before its first acknowledgement. */
    String lastAcked;
    /** Consecutive Redis failures, for the error backoff. */
    int redisFailures;

    OwnedShard(Fence fence, HandlerContext handlerContext) {
        this.fence = fence;
        this.handlerContext = handlerContext;
    }

    @Override
    public ShardId shard() {
        return fence.shard();
    }

    @Override
    public long ownerEpoch() {
        return fence.ownerEpoch();
    }

    @Override
    public HandlerContext handlerContext() {
        return handlerContext;
    }

    /** The fence of every Redis command of this ownership. */
    Fence fence() {
        return fence;
    }

    ShardPhase phase() {
        return phase;
    }

    ShardActivity activity() {
        return activity;
    }

    /**
     * The one place a shard's state changes. Checks the phase edge ({@link ShardPhase#previousValidPhases}), the
     * activity edge ({@link ShardActivity#previousValid}) and the combination, then logs member, shard, owner epoch,
     * {@code from -> to} and {@code reason}: phase changes at INFO, activity changes at TRACE (they are the hot path).
     *
     * @throws IllegalStateException on an edge or a combination the enums do not allow; nothing changes then
     */
    void transition(ShardPhase nextPhase, ShardActivity nextActivity, String reason) {
        ShardPhase fromPhase = phase;
        ShardActivity fromActivity = activity;
        boolean phaseChanges = nextPhase != fromPhase;
        boolean activityChanges = nextActivity != fromActivity;
        if (phaseChanges && !nextPhase.previousValidPhases().contains(fromPhase)
                || activityChanges && !nextActivity.previousValid().contains(fromActivity)
                || !allowed(nextPhase, nextActivity)) {
            throw new IllegalStateException("member " + fence.member() + " shard " + fence.shard() + " epoch "
                    + fence.ownerEpoch() + ": illegal transition " + fromPhase + "/" + fromActivity + " -> " + nextPhase
                    + "/" + nextActivity + " (" + reason + ")");
        }
        if (phaseChanges) {
            LOG.info("member {} shard {} epoch {}: {} -> {} ({})", fence.member(), fence.shard(), fence.ownerEpoch(),
                    fromPhase, nextPhase, reason);
        }
        if (activityChanges && LOG.isTraceEnabled()) {
            LOG.trace("member {} shard {} epoch {}: {} -> {} ({})", fence.member(), fence.shard(), fence.ownerEpoch(),
                    fromActivity, nextActivity, reason);
        }
        phase = nextPhase;
        activity = nextActivity;
    }

    /** The combinations of phase and activity a shard may be in. */
    static boolean allowed(ShardPhase phase, ShardActivity activity) {
        if (!phase.active()) {
            return activity == ShardActivity.DONE || activity.inFlight();
        }
        if (activity == ShardActivity.DONE) {
            return false;
        }
        return !activity.idle() || phase == ShardPhase.READING;
    }

    @Override
    public String toString() {
        return fence.shard() + "@" + fence.ownerEpoch() + "[" + phase + "/" + activity + "]";
    }
}
