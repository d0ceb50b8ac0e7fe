package io.shardline.runtime.shard;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The processing lease of one logical member, as the member's consumption sees it: the deadline the member's
 * heartbeat loop computed ({@link io.shardline.coordinator.member.Membership#leaseDeadlineMs()}), read on the same
 * monotonic clock. The shard steps consult it right before every handler call and every acknowledgement, so a member
 * whose lease ran out (it was paused past its session timeout, say) hands nothing more to its handler, even a batch
 * its blocked read received before the lease ran out, and acknowledges nothing: the records stay pending in Redis
 * for the shard's next owner.
 *
 * <p>Thread-safe: the heartbeat loop writes the deadline on its context; the member's context and the handler
 * threads read it.
 */
public final class MemberLease {

    private final LongSupplier clockMs;
    private volatile long deadlineMs;

    /**
     * A lease that has not been granted yet (nothing may be processed until {@link #extendTo} is called).
     *
     * @param clockMs the clock the deadlines are on: the member's monotonic clock, in milliseconds
     */
    public MemberLease(LongSupplier clockMs) {
        this(clockMs, Long.MIN_VALUE);
    }

    private MemberLease(LongSupplier clockMs, long deadlineMs) {
        this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
        this.deadlineMs = deadlineMs;
    }

    /** A lease that never runs out: for consumption without a group coordinator (standalone listeners, tests). */
    public static MemberLease unbounded() {
        return new MemberLease(() -> 0L, Long.MAX_VALUE);
    }

    /**
     * Sets the deadline the member's heartbeat loop computed; {@code Long.MIN_VALUE} when it fenced itself (or has
     * not joined). The loop calls it with every change, before it starts or stops shards.
     */
    public void extendTo(long deadlineMs) {
        this.deadlineMs = deadlineMs;
    }

    /** True while the member may still process and acknowledge: its clock has not reached the deadline. */
    public boolean valid() {
        long deadline = deadlineMs;
        return deadline == Long.MAX_VALUE || clockMs.getAsLong() < deadline;
    }

    /** The deadline ({@code Long.MIN_VALUE} when none, {@code Long.MAX_VALUE} when unbounded). */
    public long deadlineMs() {
        return deadlineMs;
    }

    @Override
    public String toString() {
        long deadline = deadlineMs;
        return deadline == Long.MAX_VALUE ? "MemberLease[unbounded]"
                : deadline == Long.MIN_VALUE ? "MemberLease[none]"
                : "MemberLease[deadline " + deadline + ", now " + clockMs.getAsLong() + "]";
    }
}
