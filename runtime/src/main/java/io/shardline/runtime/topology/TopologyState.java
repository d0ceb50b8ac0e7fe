package io.shardline.runtime.topology;

import java.util.Locale;

/**
 * The state of a stream's topology, stored as its name ({@code docs/protocol.md}, "The topology record"); a
 * resharding moves it through the states of {@code io.shardline.runtime.reshard.ReshardState}.
 */
public enum TopologyState {
    /** The stream has {@code shards} shards and producers route with {@code hash mod shards}. */
    STABLE,
    /**
     * A change from {@code shards} to {@code target_shards} is under way: producers route with the new count since
     * the routing epoch moved; each old shard's {@code cutover} entry id marks where its old-layout records end.
     */
    RESHARDING,
    /** A change is being undone: records written in the new layout are handled before the stream is back. */
    ROLLING_BACK,
    /** A state written by a newer version; read-only for this one. */
    UNKNOWN;

    /** The state named {@code text}, {@link #UNKNOWN} for a name this version does not know. */
    public static TopologyState parse(String text) {
        if (text == null) {
            return UNKNOWN;
        }
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return UNKNOWN;
        }
    }
}
