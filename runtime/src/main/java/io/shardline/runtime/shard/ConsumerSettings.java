package io.shardline.runtime.shard;

import java.util.Objects;

/**
 * How one member consumes its shards (from the listener's settings). Immutable.
 *
 * @param group the consumer group (Redis consumer-group name)
 * @param maxConcurrency local workers: how many handler calls (batches of different shards) the member runs at once
 *                       ({@code max.concurrency})
 * @param batchSize entries per fenced read ({@code batch.size})
 * @param ackMode {@code ack} or {@code ack-delete}
 * @param maxAttempts handler attempts per batch (and per record once a batch is split) before dead-lettering
 * @param retryBackoffMs the first retry delay; doubled per attempt
 * @param retryBackoffMaxMs the longest retry delay (also caps the backoff after Redis errors)
 * @param deadLetterStream the stream key failed records are written to
 * @param handlerTimeoutMs a handler call running longer counts as failed
 * @param releaseMode whether a release finishes or abandons the batch in flight
 * @param wakeUpBlockMs the BLOCK time of the member's wake-up {@code XREAD}
 * @param takeoverPageSize entries moved per takeover page
 * @param hotPath how the fenced ack-and-read of the hot path is done (a Redis Cluster always uses the script)
 * @param ackLingerMs how long a shard that keeps up may hold the acknowledgement of its last handled batch so that it
 *                    rides on the shard's next read ({@code ack.linger.ms}; 0: acknowledge at once)
 * @param maxDeliveries Redis deliveries of a record after which it is dead-lettered without calling the handler again
 *                      ({@code max.deliveries}; see docs/operations.md, "Poison records")
 * @param cutoverPollMs how often a shard waiting at a resharding cutover looks whether its barrier is released
 *                      ({@link #cutoverPollMs(long)} of the group's heartbeat interval)
 */
public record ConsumerSettings(
        String group,
        int maxConcurrency,
        int batchSize,
        AckMode ackMode,
        int maxAttempts,
        long retryBackoffMs,
        long retryBackoffMaxMs,
        String deadLetterStream,
        long handlerTimeoutMs,
        ReleaseMode releaseMode,
        long wakeUpBlockMs,
        int takeoverPageSize,
        HotPath hotPath,
        long ackLingerMs,
        int maxDeliveries,
        long cutoverPollMs) {

    /** The default {@code max.deliveries}. */
    public static final int DEFAULT_MAX_DELIVERIES = 5;

    /** The default {@code ack.linger.ms}. */
    public static final long DEFAULT_ACK_LINGER_MS = 100;

    /** The cutover poll of the default heartbeat interval (1 s). */
    public static final long DEFAULT_CUTOVER_POLL_MS = cutoverPollMs(1_000);

    /**
     * How often a shard waiting at a cutover polls its routing hash, for a group heartbeating every
     * {@code heartbeatIntervalMs}: a quarter of it (at least 10 ms), so that a released barrier is seen well within one
     * heartbeat interval (the leader's resharding task ticks at this cadence too while a change runs).
     */
    public static long cutoverPollMs(long heartbeatIntervalMs) {
        return Math.max(10, heartbeatIntervalMs / 4);
    }

    /** What happens to the batch in flight when a shard is released. */
    public enum ReleaseMode {
        /** Finish it (retries and dead-lettering included), acknowledge, then report the shard released. */
        FINISH,
        /** Drop it unacknowledged (the next owner takes it over); report the shard released at once. */
        ABANDON
    }

    /** Validates the ranges. */
    public ConsumerSettings {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(ackMode, "ackMode");
        Objects.requireNonNull(deadLetterStream, "deadLetterStream");
        Objects.requireNonNull(releaseMode, "releaseMode");
        Objects.requireNonNull(hotPath, "hotPath");
        requirePositive("max.concurrency", maxConcurrency);
        requirePositive("batch.size", batchSize);
        requirePositive("max.attempts", maxAttempts);
        requirePositive("max.deliveries", maxDeliveries);
        requirePositive("handler.timeout.ms", handlerTimeoutMs);
        requirePositive("wake-up block", wakeUpBlockMs);
        requirePositive("takeover page", takeoverPageSize);
        requirePositive("cutover poll", cutoverPollMs);
        if (ackLingerMs < 0) {
            throw new IllegalArgumentException("ack.linger.ms must be >= 0, got " + ackLingerMs);
        }
        if (retryBackoffMs < 0 || retryBackoffMaxMs < retryBackoffMs) {
            throw new IllegalArgumentException("need 0 <= retry.backoff.ms <= retry.backoff.max.ms, got "
                    + retryBackoffMs + " and " + retryBackoffMaxMs);
        }
    }

    /** Settings with the default hot path ({@link HotPath#TRANSACTION}). */
    public ConsumerSettings(String group, int maxConcurrency, int batchSize, AckMode ackMode, int maxAttempts,
                            long retryBackoffMs, long retryBackoffMaxMs, String deadLetterStream, long handlerTimeoutMs,
                            ReleaseMode releaseMode, long wakeUpBlockMs, int takeoverPageSize) {
        this(group, maxConcurrency, batchSize, ackMode, maxAttempts, retryBackoffMs, retryBackoffMaxMs, deadLetterStream,
                handlerTimeoutMs, releaseMode, wakeUpBlockMs, takeoverPageSize, HotPath.TRANSACTION, DEFAULT_ACK_LINGER_MS, DEFAULT_MAX_DELIVERIES,
                DEFAULT_CUTOVER_POLL_MS);
    }

    /** Settings polling cutovers at {@link #DEFAULT_CUTOVER_POLL_MS}. */
    public ConsumerSettings(String group, int maxConcurrency, int batchSize, AckMode ackMode, int maxAttempts,
                            long retryBackoffMs, long retryBackoffMaxMs, String deadLetterStream, long handlerTimeoutMs,
                            ReleaseMode releaseMode, long wakeUpBlockMs, int takeoverPageSize, HotPath hotPath,
                            long ackLingerMs, int maxDeliveries) {
        this(group, maxConcurrency, batchSize, ackMode, maxAttempts, retryBackoffMs, retryBackoffMaxMs, deadLetterStream,
                handlerTimeoutMs, releaseMode, wakeUpBlockMs, takeoverPageSize, hotPath, ackLingerMs, maxDeliveries,
                DEFAULT_CUTOVER_POLL_MS);
    }

    /** Defaults for tests and tools: 4 workers, batches of 100, 3 attempts, 100 ms..10 s backoff, 30 s timeout. */
    public static ConsumerSettings defaults(String group, String deadLetterStream) {
        return new ConsumerSettings(group, 4, 100, AckMode.ACK, 3, 100, 10_000, deadLetterStream, 30_000,
                ReleaseMode.FINISH, 1_000, 1_000, HotPath.TRANSACTION, DEFAULT_ACK_LINGER_MS, DEFAULT_MAX_DELIVERIES,
                DEFAULT_CUTOVER_POLL_MS);
    }

    /** A copy with other local worker capacity and batch size. */
    public ConsumerSettings withConcurrency(int newMaxConcurrency, int newBatchSize) {
        return new ConsumerSettings(group, newMaxConcurrency, newBatchSize, ackMode, maxAttempts, retryBackoffMs,
                retryBackoffMaxMs, deadLetterStream, handlerTimeoutMs, releaseMode, wakeUpBlockMs, takeoverPageSize, hotPath, ackLingerMs, maxDeliveries, cutoverPollMs);
    }

    /** A copy with other retry settings. */
    public ConsumerSettings withRetries(int newMaxAttempts, long newBackoffMs, long newBackoffMaxMs, long newTimeoutMs) {
        return new ConsumerSettings(group, maxConcurrency, batchSize, ackMode, newMaxAttempts, newBackoffMs,
                newBackoffMaxMs, deadLetterStream, newTimeoutMs, releaseMode, wakeUpBlockMs, takeoverPageSize, hotPath, ackLingerMs, maxDeliveries, cutoverPollMs);
    }

    /** A copy with another ack mode and release mode. */
    public ConsumerSettings withModes(AckMode newAckMode, ReleaseMode newReleaseMode) {
        return new ConsumerSettings(group, maxConcurrency, batchSize, newAckMode, maxAttempts, retryBackoffMs,
                retryBackoffMaxMs, deadLetterStream, handlerTimeoutMs, newReleaseMode, wakeUpBlockMs, takeoverPageSize, hotPath, ackLingerMs, maxDeliveries, cutoverPollMs);
    }

    /** A copy with another hot path. */
    public ConsumerSettings withHotPath(HotPath newHotPath) {
        return new ConsumerSettings(group, maxConcurrency, batchSize, ackMode, maxAttempts, retryBackoffMs,
                retryBackoffMaxMs, deadLetterStream, handlerTimeoutMs, releaseMode, wakeUpBlockMs, takeoverPageSize, newHotPath, ackLingerMs, maxDeliveries, cutoverPollMs);
    }

    /** A copy with another acknowledgement linger (0: acknowledge every batch at once). */
    public ConsumerSettings withAckLinger(long newAckLingerMs) {
        return new ConsumerSettings(group, maxConcurrency, batchSize, ackMode, maxAttempts, retryBackoffMs,
                retryBackoffMaxMs, deadLetterStream, handlerTimeoutMs, releaseMode, wakeUpBlockMs, takeoverPageSize, hotPath,
                newAckLingerMs, maxDeliveries, cutoverPollMs);
    }

    /** A copy with another {@code max.deliveries}. */
    public ConsumerSettings withMaxDeliveries(int newMaxDeliveries) {
        return new ConsumerSettings(group, maxConcurrency, batchSize, ackMode, maxAttempts, retryBackoffMs,
                retryBackoffMaxMs, deadLetterStream, handlerTimeoutMs, releaseMode, wakeUpBlockMs, takeoverPageSize, hotPath,
                ackLingerMs, newMaxDeliveries, cutoverPollMs);
    }

    /** A copy polling cutovers every {@code newCutoverPollMs}. */
    public ConsumerSettings withCutoverPoll(long newCutoverPollMs) {
        return new ConsumerSettings(group, maxConcurrency, batchSize, ackMode, maxAttempts, retryBackoffMs,
                retryBackoffMaxMs, deadLetterStream, handlerTimeoutMs, releaseMode, wakeUpBlockMs, takeoverPageSize, hotPath,
                ackLingerMs, maxDeliveries, newCutoverPollMs);
    }

    /** The retry delay before attempt {@code attempt + 1}: {@code retryBackoffMs * 2^(attempt-1)}, capped. */
    public long backoffMs(int attempt) {
        int shift = Math.min(Math.max(attempt - 1, 0), 30);
        long delay = retryBackoffMs << shift;
        return delay < 0 || delay > retryBackoffMaxMs ? retryBackoffMaxMs : delay;
    }

    private static void requirePositive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, got " + value);
        }
    }
}
