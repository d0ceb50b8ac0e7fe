package io.shardline.runtime.redis;

/** A command was sent on a dedicated connection that is currently reconnecting (or closed). */
public final class RedisDisconnectedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message naming the connection. */
    public RedisDisconnectedException(String message) {
        super(message, null, false, false);
    }
}
