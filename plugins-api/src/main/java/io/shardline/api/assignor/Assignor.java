package io.shardline.api.assignor;

/**
 * Decides which member of a group owns which shard: the SPI behind the built-in assignors ({@code range},
 * {@code round-robin}, {@code sticky}, {@code cooperative-sticky}) and custom ones.
 *
 * <p>An assignor is a pure function: the same {@link GroupSpec} and {@link ShardDescriber} give the same
 * {@link GroupAssignment}, whatever the order of members in the spec; it does no I/O, keeps no state
 * between calls, reads no clock and uses no unseeded randomness. The group coordinator calls it on the
 * leader whenever the group's membership or shard set changes, then moves shards revoke-before-assign,
 * so an assignor never has to worry about two owners at once.
 *
 * <p>Every shard of a stream with at least one subscriber should be given to exactly one subscriber;
 * a shard may only be given to a member subscribed to its stream. The coordinator checks this and rejects
 * an assignment that breaks it.
 *
 * <p>Custom assignors are plugins: a public class with a public no-argument constructor, listed in
 * {@code META-INF/services/io.shardline.api.assignor.Assignor} of a jar on the plugin path, and selected
 * by its {@link #name()} or its fully qualified class name. Implementations must be thread-safe.
 */
public interface Assignor {

    /** The name listeners use to select this assignor, e.g. {@code "sticky"}. */
    String name();

    /**
     * Computes the target assignment.
     *
     * @param group the members, their subscriptions, racks and previously owned shards
     * @param shards the streams: shard counts and per-shard racks
     * @return an assignment with an entry for every member of {@code group} (empty when it gets nothing)
     * @throws IllegalArgumentException when the input is inconsistent in a way the assignor cannot serve
     */
    GroupAssignment assign(GroupSpec group, ShardDescriber shards);
}
