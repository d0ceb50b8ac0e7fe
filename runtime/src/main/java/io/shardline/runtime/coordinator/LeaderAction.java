package io.shardline.runtime.coordinator;

/**
 * What {@link LeaderRoleMachine} decided the coordinator host's driver ({@link CoordinatorVerticle}) must carry out:
 * the machine changes roles and terms, the driver does the Redis calls, the event-bus requests and the timers.
 * Immutable values.
 */
sealed interface LeaderAction {

    /**
     * Take the next leader epoch in {@code term}: load and replay the log, then run the claim script
     * ({@link LeaderLog#claim}); a failed attempt is retried after {@code delayMs}.
     *
     * @param term the term this claim belongs to (stale once the machine moved on)
     * @param attempt 0 for the first attempt
     * @param minSilenceMs how long the holder must have written nothing; -1 for a hand-over (unconditional)
     * @param delayMs how long to wait before this attempt (0 for the first)
     * @param handedOverFrom the stopping leader that asked for this claim, or null
     */
    record Claim(int term, int attempt, long minSilenceMs, long delayMs, String handedOverFrom) implements LeaderAction {
    }

    /**
     * Lead with the replayed coordinator: activate it at {@code nowMs}, its inherited leases shortened by
     * {@code quietMs} (the time since the predecessor's last accepted write, so they run out at that write + session;
     * {@code GroupCoordinator#inheritedLeaseMs}).
     */
    record Lead(int term, long leaderEpoch, long nowMs, long quietMs) implements LeaderAction {
    }

    /** Record under {@code leaderEpoch} how many workers this leader sees (so a larger side of a split may depose it). */
    record RecordView(long leaderEpoch, int size) implements LeaderAction {
    }

    /** Ask {@code successor}, the view's oldest worker, to take leadership over ({@link CoordinatorWire#TAKE_OVER}). */
    record HandOver(String successor, long leaderEpoch) implements LeaderAction {
    }

    /** The coordinator instance is discarded (its term ended); {@code wasLeader} when this ends a leadership. */
    record StepDown(boolean wasLeader) implements LeaderAction {
    }
}
