package io.shardline.runtime.redis;

/** A Redis command did not complete within {@code redis.command.timeout.ms}. */
public final class RedisTimeoutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception naming the command and the timeout. */
    public RedisTimeoutException(String command, long timeoutMs) {
        super("Redis command " + command + " did not complete within " + timeoutMs + " ms", null, false, false);
    }
}
