package io.shardline.runtime.reshard;

import io.shardline.runtime.redis.StreamIds;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the leader observed of one stream at one moment, the input of {@link Reshard#decide}: the groups on the
 * stream with the shard count each manages, each involved shard's routing hash, and each group's position on each
 * shard. Immutable.
 *
 * @param groups group to the shard count of the stream its coordinator configuration manages
 * @param routing shard index to its routing hash (a shard not listed reads as never flipped)
 * @param positions group to shard index to its position there (a shard not listed: the group does not exist there)
 * @param takingUp the groups whose members are still taking up their managed shard set (a shard of it has no owner
 *                 yet: the rebalance after a growth has not settled), sorted
 */
public record Progress(SortedMap<String, Integer> groups, SortedMap<Integer, Routing> routing,
                       Map<String, Map<Integer, Position>> positions, SortedSet<String> takingUp) {

    /** Copies. */
    public Progress {
        groups = new TreeMap<>(groups);
        routing = new TreeMap<>(routing);
        positions = Map.copyOf(positions);
        takingUp = new TreeSet<>(takingUp);
    }

    /** Progress in which every group owns its shard set. */
    public Progress(SortedMap<String, Integer> groups, SortedMap<Integer, Routing> routing,
                    Map<String, Map<Integer, Position>> positions) {
        this(groups, routing, positions, new TreeSet<>());
    }

    /**
     * One shard's routing hash {@code {<stream>:<i>}:routing}.
     *
     * @param epoch the epoch it accepts writes under ({@code 1} when absent)
     * @param cutovers epoch to the id of the last entry written before that epoch took effect on the shard
     * @param released group to the highest epoch whose barrier passed for it here ({@code 0} when absent)
     */
    public record Routing(long epoch, SortedMap<Long, String> cutovers, Map<String, Long> released) {

        /** Never flipped. */
        public static final Routing NONE = new Routing(1, new TreeMap<>(), Map.of());

        /** Copies. */
        public Routing {
            cutovers = new TreeMap<>(cutovers);
            released = Map.copyOf(released);
        }

        /**
         * Where the records written under epochs below {@code e} end on this shard: the cutover of the lowest epoch
         * at or above {@code e} the shard was flipped to (a shard flipped straight past {@code e} had no record of
         * epoch {@code e}); empty while the shard has not reached {@code e}.
         */
        public Optional<String> cutoverFor(long e) {
            if (epoch < e) {
                return Optional.empty();
            }
            SortedMap<Long, String> tail = cutovers.tailMap(e);
            return tail.isEmpty() ? Optional.empty() : Optional.of(tail.get(tail.firstKey()));
        }

        /** The highest epoch released for {@code group} here. */
        public long released(String group) {
            return released.getOrDefault(group, 0L);
        }
    }

    /**
     * A group's position on one shard.
     *
     * @param lastDelivered the group's last-delivered id ({@code XINFO GROUPS})
     * @param oldestPending the smallest pending id ({@code XPENDING}), {@code null} when none is pending
     */
    public record Position(String lastDelivered, String oldestPending) {

        /**
         * Whether the group has read and acknowledged everything up to {@code cutover}: delivered at or past it and
         * nothing pending at or below it.
         */
        public boolean drainedTo(String cutover) {
            return StreamIds.compare(lastDelivered, cutover) >= 0
                    && (oldestPending == null || StreamIds.compare(oldestPending, cutover) > 0);
        }
    }

    /** The routing of {@code shard}. */
    public Routing routing(int shard) {
        return routing.getOrDefault(shard, Routing.NONE);
    }

    /** Group {@code group}'s position on {@code shard}, empty when the group does not exist there. */
    public Optional<Position> position(String group, int shard) {
        return Optional.ofNullable(positions.getOrDefault(group, Map.of()).get(shard));
    }
}
