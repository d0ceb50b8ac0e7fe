package io.shardline.runtime.control;

import java.util.Objects;

/**
 * The Redis keys of the control plane, all under the cluster's hash-tagged metadata prefix
 * {@code {shardline:<cluster>}} (so they live in one hash slot with the rest of the cluster's metadata):
 * <ul>
 *   <li>{@code {shardline:<cluster>}:listener-configs} — hash: listener name to its JSON configuration
 *       (listeners created over REST);</li>
 *   <li>{@code {shardline:<cluster>}:listener-target-states} — hash: listener name to
 *       {@code STARTED|PAUSED|STOPPED};</li>
 *   <li>{@code {shardline:<cluster>}:paused-shards} — hash: JSON {@code ["listener","stream",index]} to
 *       {@code PAUSED};</li>
 *   <li>{@code {shardline:<cluster>}:control-revision} — counter incremented by every write, so that a
 *       worker polling the target states can tell that something changed.</li>
 * </ul>
 * Immutable.
 */
public final class ControlKeys {

    private final String prefix;

    /** The keys of cluster {@code clusterName}. */
    public ControlKeys(String clusterName) {
        Objects.requireNonNull(clusterName, "clusterName");
        if (clusterName.contains("{") || clusterName.contains("}")) {
            throw new IllegalArgumentException("cluster name '" + clusterName + "' must not contain '{' or '}'");
        }
        this.prefix = "{shardline:" + clusterName + "}";
    }

    /** Hash of REST-created listener configurations. */
    public String listenerConfigs() {
        return prefix + ":listener-configs";
    }

    /** Hash of listener target states. */
    public String targetStates() {
        return prefix + ":listener-target-states";
    }

    /** Hash of paused shards. */
    public String pausedShards() {
        return prefix + ":paused-shards";
    }

    /** Counter of control-plane writes. */
    public String revision() {
        return prefix + ":control-revision";
    }
}
