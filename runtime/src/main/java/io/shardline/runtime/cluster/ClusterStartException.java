package io.shardline.runtime.cluster;

/** The worker could not join the cluster; the message says why in words for an operator. */
public final class ClusterStartException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public ClusterStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
