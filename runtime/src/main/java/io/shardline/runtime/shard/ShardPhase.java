package io.shardline.runtime.shard;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The life of one owned shard in a member. Edges:
 * {@code TAKING_OVER -> REPLAYING -> READING}, {@code READING -> REPLAYING} after a read whose outcome is unknown
 * (Redis may have delivered entries to this member whose reply never arrived);
 * {@code READING -> AT_CUTOVER -> READING} while the stream is resharded (reads stop at the cutover until the group's
 * barrier is released, docs/protocol.md section 8b); any active phase {@code -> RELEASING -> RELEASED};
 * any phase but {@code RELEASED} {@code -> FENCED}.
 */
public enum ShardPhase {
    /** Moving the previous owners' pending entries into this member's PEL (fenced XAUTOCLAIM pages). */
    TAKING_OVER,
    /** Handling this member's PEL in id order before any new entry (after a takeover, or a read whose reply was lost). */
    REPLAYING,
    /** Reading new entries ({@code >}). */
    READING,
    /**
     * Read everything up to the cutover of a resharding epoch that the group's barrier on this shard has not passed
     * (Redis answered that the shard waits there): reads nothing, polls the shard's routing hash until
     * {@code released:<group>} reaches that epoch, then reads again. A retired shard stays here until it is revoked.
     */
    AT_CUTOVER,
    /** No more reads; the batch in flight is finished or abandoned, then the shard is released. */
    RELEASING,
    /** Released: the member may report it REVOKED. Terminal. */
    RELEASED,
    /** Lost: another owner or epoch holds the shard in Redis, or the member fenced itself. Terminal. */
    FENCED;

    /** The sets of {@link #previousValidPhases}, built once: the gate reads them on every transition. */
    private static final List<Set<ShardPhase>> PREVIOUS_VALID =
            Arrays.stream(values()).map(p -> Collections.unmodifiableSet(p.edgesInto())).toList();

    /** The phases this one may be entered from (unmodifiable). */
    Set<ShardPhase> previousValidPhases() {
        return PREVIOUS_VALID.get(ordinal());
    }

    private EnumSet<ShardPhase> edgesInto() {
        return switch (this) {
            case TAKING_OVER -> EnumSet.noneOf(ShardPhase.class);
            case REPLAYING -> EnumSet.of(TAKING_OVER, READING);
            case READING -> EnumSet.of(REPLAYING, AT_CUTOVER);
            case AT_CUTOVER -> EnumSet.of(READING);
            case RELEASING -> EnumSet.of(TAKING_OVER, REPLAYING, READING, AT_CUTOVER);
            case RELEASED -> EnumSet.of(RELEASING);
            case FENCED -> EnumSet.of(TAKING_OVER, REPLAYING, READING, AT_CUTOVER, RELEASING);
        };
    }

    /** True while the shard may still read or handle records. */
    boolean active() {
        return this == TAKING_OVER || this == REPLAYING || this == READING || this == AT_CUTOVER || this == RELEASING;
    }
}
