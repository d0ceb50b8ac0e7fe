package io.shardline.runtime.shard;

/**
 * The timers of a member's {@link ShardMachine}, as a port: the driver sets them on the member's Vert.x context and
 * brings a fired one back as {@code ShardMachine.timerFired(shard, kind, id)}; tests move a manual clock. Never fires
 * synchronously inside {@link #set}. Used on the member's context only.
 */
interface ShardTimers {

    /** What a timer is for. */
    enum Kind {
        /**
         * A handler retry backoff, a Redis error backoff, a lease recheck or the next poll of a shard waiting at a
         * cutover ({@link ShardActivity#WAITING}).
         */
        RETRY,
        /** The ack linger of a {@link ShardActivity#LINGERING} shard ran out. */
        LINGER
    }

    /** Sets a timer for {@code shard} that fires after {@code delayMs} (at least 1); returns its id. */
    long set(long delayMs, OwnedShard shard, Kind kind);

    /** Cancels the timer {@code id} (one that fired already or was cancelled is ignored). */
    void cancel(long id);
}
