package io.shardline.runtime.reshard;

import java.util.EnumSet;
import java.util.Set;

/**
 * The lifecycle of one stream's shard count, stored as the topology record's {@code state}: {@link #STABLE},
 * {@link #RESHARDING} to a new count under a new routing epoch, {@link #ROLLING_BACK} to the count before the
 * change (itself a new routing epoch). A new change may start during a rollback (another epoch of the same chain).
 */
public enum ReshardState {
    /** One layout; producers and groups use {@code hash mod shards}. */
    STABLE,
    /** A change to a new count runs: the barriers of its epochs are being released. */
    RESHARDING,
    /** A change is being undone: the records written in its layout are handled before the stream is back. */
    ROLLING_BACK;

    /** The states this one may be entered from (the machine's one transition gate checks it). */
    Set<ReshardState> previousValidStates() {
        return switch (this) {
            case STABLE -> EnumSet.of(RESHARDING, ROLLING_BACK);
            case RESHARDING -> EnumSet.of(STABLE, ROLLING_BACK);
            case ROLLING_BACK -> EnumSet.of(RESHARDING);
        };
    }
}
