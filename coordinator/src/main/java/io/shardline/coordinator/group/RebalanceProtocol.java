package io.shardline.coordinator.group;

import java.util.Locale;

/** How a group moves shards when its target assignment changes. */
public enum RebalanceProtocol {

    /** Incremental (default): only shards that move are revoked, each before it is given to its new owner. */
    COOPERATIVE,
    /** Stop-the-world: every member revokes every shard before any member gets any shard of the new target. */
    EAGER;

    /**
     * Parses {@code cooperative} or {@code eager} (any case).
     *
     * @throws IllegalArgumentException naming the value and the accepted values
     */
    public static RebalanceProtocol parse(String value) {
        if (value != null) {
            for (RebalanceProtocol p : values()) {
                if (p.name().equalsIgnoreCase(value.trim())) {
                    return p;
                }
            }
        }
        throw new IllegalArgumentException("rebalance protocol '" + value + "' is not one of cooperative, eager");
    }

    /** The lower-case name used in configuration. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
