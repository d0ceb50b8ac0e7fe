package io.shardline.runtime.reshard;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which groups a growth's cutover waits for (docs/protocol.md section 8b, step 1): the groups whose members are still
 * taking up their grown shard set ({@link GroupShardSets.OnStream#takingUp()}), so that the old shards are flipped
 * once the new ones are owned and read up to their barrier. A stream is held so for at most {@value #HOLD_INTERVALS}
 * heartbeat intervals from the first pass that saw it; after that its flips go on regardless (a member that takes
 * nothing up, one about to be fenced say, never stops a change: its shards wait at their barriers as before). Used by
 * one tick at a time on the leader; not thread-safe.
 */
final class TakeUpHold {

    /** The longest hold, in heartbeat intervals: a revocation's round trip and the new owners' next heartbeats. */
    static final int HOLD_INTERVALS = 6;

    private static final Logger LOG = LoggerFactory.getLogger(ReshardTask.class);

    private final LongSupplier clockMs;
    private final long limitMs;
    /** Stream to when a pass first saw its groups taking up shards. */
    private final Map<String, Long> since = new HashMap<>();
    /** The streams held for the longest hold already (logged once). */
    private final Set<String> gaveUp = new HashSet<>();

    /** A hold of at most {@value #HOLD_INTERVALS} times {@code intervalMs}, timed by {@code clockMs}. */
    TakeUpHold(LongSupplier clockMs, long intervalMs) {
        this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
        this.limitMs = HOLD_INTERVALS * intervalMs;
    }

    /** The groups of {@code stream} whose take-up its cutover waits for now, sorted. */
    SortedSet<String> takingUp(String stream, List<GroupShardSets.OnStream> on) {
        SortedSet<String> groups = on.stream().filter(GroupShardSets.OnStream::takingUp)
                .map(GroupShardSets.OnStream::group).collect(Collectors.toCollection(TreeSet::new));
        if (groups.isEmpty()) {
            since.remove(stream);
            gaveUp.remove(stream);
            return groups;
        }
        long now = clockMs.getAsLong();
        long first = since.computeIfAbsent(stream, s -> now);
        if (now - first < limitMs) {
            return groups;
        }
        if (gaveUp.add(stream)) {
            LOG.info("Resharding of stream '{}': groups {} have not taken up their new shards within {} ms; the cutover"
                    + " goes on without them", stream, groups, limitMs);
        }
        return new TreeSet<>();
    }

    /** Forgets every stream (this worker stopped leading). */
    void clear() {
        since.clear();
        gaveUp.clear();
    }
}
