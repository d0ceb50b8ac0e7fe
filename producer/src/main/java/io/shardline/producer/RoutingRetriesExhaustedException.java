package io.shardline.producer;

import io.shardline.producer.routing.RoutingTopology;
import io.shardline.producer.routing.StaleRouting;

/**
 * A producer's records were refused as routed under an old routing epoch ({@link StaleRouting}) in every one of
 * {@link ShardProducer#MAX_ATTEMPTS} rounds, reading the topology again after each: the stream's topology kept
 * changing, or a shard is at a routing epoch its topology record does not have. Nothing of the refused records was
 * written; the message names the stream, the shard, both epochs and what to check.
 */
public final class RoutingRetriesExhaustedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** After {@code attempts} rounds; {@code last} is the last refusal, {@code routedWith} the topology of that round. */
    public RoutingRetriesExhaustedException(StaleRouting last, RoutingTopology routedWith, int refused, int attempts) {
        super(refused + " record(s) of stream '" + last.stream() + "' were refused in each of " + attempts + " attempts ("
                + last + ", routed under routing epoch " + routedWith.routingEpoch() + " with " + routedWith.shards()
                + " shards) and were not written: the topology " + RoutingTopology.key(last.stream())
                + " kept changing or is behind its shards; check it with 'bin/shardline streams describe "
                + last.stream() + "' and send them again");
    }
}
