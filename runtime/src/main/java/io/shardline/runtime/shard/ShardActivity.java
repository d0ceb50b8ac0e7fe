package io.shardline.runtime.shard;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What an owned shard is doing now: the second half of its state beside its {@link ShardPhase} (where it is in its
 * ownership). {@link #PARKED} is the hub: a step ends there and the machine decides from there what comes next, so
 * every other state is entered from it or from the one before it in a step. The named combinations with phases are
 * checked by {@link OwnedShard#transition}: {@link #IDLE} and {@link #LINGERING} only while {@link ShardPhase#READING};
 * a terminal phase ({@code RELEASED}, {@code FENCED}) only with {@link #DONE} or with a call still in flight
 * ({@link #STARTING}, {@link #STEPPING}, {@link #HANDLING}) whose result is then dropped.
 */
public enum ShardActivity {
    /** {@code onAssigned} runs; nothing else may start. Initial. */
    STARTING,
    /** Nothing to do now (paused, stopped on an error no retry fixes, or between two decisions). */
    PARKED,
    /** In the member's ready queue: for a Redis step, or for a local worker to call the handler. */
    QUEUED,
    /** A Redis step is in flight (takeover, read, ack, ack-and-read, dead letter, group repair); holds no worker. */
    STEPPING,
    /** The handler has the shard's batch; holds one of the member's local workers. */
    HANDLING,
    /** Read nothing new: waits on the member's wake-up connections. */
    IDLE,
    /** As {@link #IDLE}, holding the acknowledgement of its last batch until its next read or {@code ack.linger.ms}. */
    LINGERING,
    /** Waits for a timer: handler retry backoff, Redis error backoff, or a lease recheck. */
    WAITING,
    /** Released or fenced, nothing in flight. Terminal. */
    DONE;

    /** The sets of {@link #previousValid}, built once: the gate checks an edge several times per batch. */
    private static final List<Set<ShardActivity>> PREVIOUS_VALID =
            Arrays.stream(values()).map(a -> Collections.unmodifiableSet(a.edgesInto())).toList();

    /** The activities this one may be entered from (unmodifiable). */
    Set<ShardActivity> previousValid() {
        return PREVIOUS_VALID.get(ordinal());
    }

    private EnumSet<ShardActivity> edgesInto() {
        return switch (this) {
            case STARTING -> EnumSet.noneOf(ShardActivity.class);
            case PARKED -> EnumSet.of(STARTING, QUEUED, STEPPING, IDLE, LINGERING, WAITING);
            case QUEUED, IDLE, LINGERING, WAITING -> EnumSet.of(PARKED);
            case STEPPING -> EnumSet.of(QUEUED, HANDLING);
            case HANDLING -> EnumSet.of(QUEUED);
            case DONE -> EnumSet.of(STARTING, PARKED, QUEUED, STEPPING, IDLE, LINGERING, WAITING);
        };
    }

    /** True while a call of the shard is in flight (onAssigned, a Redis step or a handler call). */
    boolean inFlight() {
        return this == STARTING || this == STEPPING || this == HANDLING;
    }

    /** True while the shard waits on the member's wake-up connections. */
    boolean idle() {
        return this == IDLE || this == LINGERING;
    }
}
