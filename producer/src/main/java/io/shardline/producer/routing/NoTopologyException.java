package io.shardline.producer.routing;

/**
 * A stream has no topology record, so a producer does not know its shard count; the message names the stream and
 * the command that creates it.
 */
public final class NoTopologyException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** For {@code stream}. */
    public NoTopologyException(String stream) {
        super("stream '" + stream + "' has no topology (" + RoutingTopology.key(stream) + "), so its shard count is "
                + "unknown: create it with 'bin/shardline streams create " + stream + " --shards N' (or start its first "
                + "listener, or produce with a shard count to create it, e.g. 'bin/produce --stream " + stream
                + " --shards N')");
    }
}
