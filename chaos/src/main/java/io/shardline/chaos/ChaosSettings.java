package io.shardline.chaos;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The parameters of one chaos run. Immutable.
 *
 * @param seed the seed of the fault schedule (printed; the same seed replays the same schedule)
 * @param durationMs how long faults are injected (then production stops and the group drains)
 * @param workers how many worker processes
 * @param shards how many shards the stream has
 * @param ratePerSecond records per second the producer writes (round-robin over the keys)
 * @param keys the key space: record {@code n} has key {@code k<n mod keys>} and goes to the shard {@code (n mod keys)
 *     mod shards} of the layout it is written in, so every key has many records and moves shards at a resharding;
 *     0: every record its own key ({@code k<n>}), the runs before resharding
 * @param faults the fault kinds the schedule draws from
 * @param sessionTimeoutMs the workers' {@code session.timeout.ms}
 * @param heartbeatIntervalMs the workers' {@code heartbeat.interval.ms}
 * @param maxConcurrency the listener's {@code max.concurrency}
 * @param batchSize the listener's {@code batch.size}
 * @param workMs simulated work per record in the verifying handler
 * @param distHome the unpacked distribution ({@code dist/target/shardline-<version>})
 * @param workDir where the run writes configs, logs, handling logs and the report
 * @param workerJavaOpts {@code JAVA_OPTS} for the worker JVMs
 * @param killTarget stop once this many {@code kill -9} of workers (leader included) were injected; 0: no target
 * @param pauseTarget stop once this many SIGSTOP pauses were injected; 0: no target (with both targets, faults
 *     of a kind whose target is met are skipped, and the run stops when both are met or the duration is over)
 * @param reshards how many changes of the shard count ({@link FaultKind#RESHARD}, every second one rolled back:
 *     {@link FaultKind#RESHARD_ROLLBACK}) are spread evenly over the run; with fault targets, they are a target too
 */
public record ChaosSettings(long seed,
                            long durationMs,
                            int workers,
                            int shards,
                            int ratePerSecond,
                            Set<FaultKind> faults,
                            int sessionTimeoutMs,
                            int heartbeatIntervalMs,
                            int maxConcurrency,
                            int batchSize,
                            long workMs,
                            Path distHome,
                            Path workDir,
                            String workerJavaOpts,
                            int killTarget,
                            int pauseTarget,
                            int keys,
                            int reshards) {

    /** The stream the producer writes and the listener reads. */
    public static final String STREAM = "chaos";
    /** The listener (and consumer group) name. */
    public static final String LISTENER = "chaos";
    /** The dead-letter stream of the listener. */
    public static final String DEAD_LETTERS = "chaos.dlq";

    /** The write token of the workers' REST API (the resharding faults use the operator's path). */
    public static final String REST_TOKEN = "chaos-token";

    /** Validates. */
    public ChaosSettings {
        Objects.requireNonNull(distHome, "distHome");
        Objects.requireNonNull(workDir, "workDir");
        faults = faults.isEmpty() ? EnumSet.noneOf(FaultKind.class) : EnumSet.copyOf(faults);
        if (workers < 2) {
            throw new IllegalArgumentException("--workers must be at least 2 (a failover needs a survivor), got " + workers);
        }
        if (shards < 1 || ratePerSecond < 1 || durationMs < 1) {
            throw new IllegalArgumentException("--shards, --rate and --duration must be positive");
        }
        if (killTarget < 0 || pauseTarget < 0 || reshards < 0 || keys < 0) {
            throw new IllegalArgumentException("--kills, --pauses, --reshards and --keys must not be negative");
        }
        if (faults.stream().anyMatch(FaultKind::reshard)) {
            throw new IllegalArgumentException("--faults: " + FaultKind.RESHARD + " and " + FaultKind.RESHARD_ROLLBACK
                    + " are not drawn at random; schedule them with --reshards N");
        }
        if (reshards > 0 && shards < 2) {
            throw new IllegalArgumentException("--reshards needs --shards of at least 2 (a change picks a count "
                    + "between half and one and a half times it)");
        }
        if (3L * heartbeatIntervalMs > sessionTimeoutMs) {
            throw new IllegalArgumentException("--heartbeat-ms must be at most a third of --session-timeout-ms");
        }
    }

    /** True when the run has fault targets ({@code --kills}, {@code --pauses}) instead of only a duration. */
    public boolean hasTargets() {
        return killTarget > 0 || pauseTarget > 0;
    }

    /** The key of record {@code seq}'s key, also the hash it is routed with ({@code key mod shards}). */
    public static long keyOf(long seq, int keys) {
        return keys == 0 ? seq : seq % keys;
    }

    /** The most records one worker can have in its handlers at once (one member per worker). */
    public int inFlightPerWorker() {
        return maxConcurrency * batchSize;
    }

    /** How long a paused worker stays stopped: 1.5 session timeouts, so that it is fenced. */
    public long pauseMs() {
        return sessionTimeoutMs * 3L / 2;
    }

    /** The graceful-stop bound the workers get ({@code rebalance.timeout.ms}). */
    public int rebalanceTimeoutMs() {
        return Math.max(5_000, 3 * sessionTimeoutMs);
    }
}
