package io.shardline.benchmarks.consumption;

import io.shardline.api.handler.ShardId;
import java.util.List;

/**
 * One consumer of {@link PeersBench}: Shardline or what users pick instead of it, reading the same shard streams
 * with its own consumer group, acknowledging every record after the sink saw it (at-least-once, as Shardline does).
 * A peer is started once and closed once.
 */
interface Peer extends AutoCloseable {

    /** What a peer hands every record to: its shard and its {@code t} field (XADD time in ns; 0 for fills). */
    @FunctionalInterface
    interface Sink {
        void accept(ShardId shard, String t);
    }

    /** The peer's name in the output. */
    String name();

    /** Starts consuming {@code shards} as consumer group {@code group} (which exists), handing each record to {@code sink}. */
    void start(List<ShardId> shards, String group, Sink sink);

    /** Stops consuming and releases connections and threads. */
    @Override
    void close();
}
