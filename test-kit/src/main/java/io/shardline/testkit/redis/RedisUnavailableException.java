package io.shardline.testkit.redis;

/** Thrown when no redis-server binary is installed; its message is the one line that says how to install it. */
public final class RedisUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    RedisUnavailableException() {
        super("redis-server not found (PATH or $" + RedisServer.BINARY_ENV + "): install it with "
                + "'apt-get install -y redis-server' (Debian/Ubuntu) or 'brew install redis' (macOS), or run bin/test, "
                + "which installs it");
    }
}
