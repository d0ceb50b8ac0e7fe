package io.shardline.runtime.topology;

/** A listener's shard count of a stream differs from the stream's topology; the message names both and the remedy. */
public final class TopologyMismatchException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** With the message of {@link TopologyCheck}. */
    public TopologyMismatchException(String message) {
        super(message);
    }
}
