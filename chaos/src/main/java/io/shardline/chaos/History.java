package io.shardline.chaos;

import io.shardline.chaos.verifying.HandlingLine;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything a chaos run left behind, as the checker reads it. Immutable.
 *
 * @param stream the logical stream the producer wrote
 * @param produced the records whose {@code XADD} Redis acknowledged
 * @param indeterminate sequence numbers whose {@code XADD} got no reply (Redis down): they may or may not exist
 * @param handlings every handling the verifying handlers logged, each member's file in file order
 * @param faults the injected faults, in time order
 * @param shards the Redis state of every shard at the end, by shard index
 * @param deadLettered how many entries the dead-letter stream holds (the verifying handler never fails)
 * @param inFlightPerWorker the most records one worker can have in handlers at once
 *     ({@code concurrency × max.concurrency × batch.size}): the duplicate bound per crashed or paused worker
 * @param sessionTimeoutMs the workers' session timeout
 * @param keys the producer's key space ({@link ChaosSettings#keyOf}); 0: every record its own key
 * @param shardsAtEnd the stream's shard count at the end: the shards in {@code shards} from this index on were
 *     retired by a resharding and must hold no entry
 */
public record History(String stream,
                      List<Produced> produced,
                      Set<Long> indeterminate,
                      List<HandlingLine> handlings,
                      List<FaultEvent> faults,
                      Map<Integer, ShardState> shards,
                      long deadLettered,
                      int inFlightPerWorker,
                      long sessionTimeoutMs,
                      int keys,
                      int shardsAtEnd) {

    /** A run without resharding whose every record is its own key (the runs before the key space). */
    public History(String stream, List<Produced> produced, Set<Long> indeterminate, List<HandlingLine> handlings,
                   List<FaultEvent> faults, Map<Integer, ShardState> shards, long deadLettered, int inFlightPerWorker,
                   long sessionTimeoutMs) {
        this(stream, produced, indeterminate, handlings, faults, shards, deadLettered, inFlightPerWorker,
                sessionTimeoutMs, 0, shards.size());
    }

    /** Copies. */
    public History {
        produced = List.copyOf(produced);
        indeterminate = Set.copyOf(indeterminate);
        handlings = List.copyOf(handlings);
        faults = List.copyOf(faults);
        shards = Map.copyOf(shards);
    }

    /** True when {@code shard} was retired by a resharding (its key removed): no entry may be left there. */
    public boolean retired(int shard) {
        return shard >= shardsAtEnd;
    }

    /**
     * True when a resharding that ended at or after {@code writtenMs} retired {@code shard}: its key was removed once
     * every group had drained it, so a record written there before may be gone although the shard is live again
     * (a later change grew the stream back). A change's target is {@code 32->20} or {@code 32->40->32}: it retires
     * the shards from its last count up to its largest.
     */
    public boolean retiredSince(int shard, long writtenMs) {
        for (FaultEvent f : faults) {
            if (f.kind().reshard() && f.endMs() >= writtenMs) {
                int[] counts = Arrays.stream(f.target().split("->")).mapToInt(Integer::parseInt).toArray();
                int max = Arrays.stream(counts).max().orElse(0);
                if (shard >= counts[counts.length - 1] && shard < max) {
                    return true;
                }
            }
        }
        return false;
    }
}
