package io.shardline.runtime.shard;

import io.shardline.runtime.redis.RedisErrorKind;

/**
 * How a failed shard command is treated, from the kind of its error reply ({@link RedisErrorKind}). Stateless.
 */
enum ShardFailure {
    /** Another member or epoch owns the shard: stop the shard locally, never retry. */
    FENCED,
    /** No owner recorded (Redis lost its data, or the coordinator has not written it yet): retry later. */
    NO_OWNER,
    /** The consumer group is missing (Redis restarted without persistence): recreate it, then retry. */
    NO_GROUP,
    /** The function library is missing (Redis restarted): load it again, then retry. */
    NO_LIBRARY,
    /** Anything else (timeout, closed connection, server busy): back off and retry. */
    TRANSIENT;

    /**
     * Whether a command's error can never succeed on retry: a key of the wrong type ({@code WRONGTYPE}), a
     * missing ACL permission ({@code NOPERM}) or a command Redis rejects ({@code ERR ...}, except running out of
     * client connections). Used for writes whose key the user chose (the dead-letter stream).
     */
    static boolean permanent(Throwable error) {
        RedisErrorKind kind = RedisErrorKind.classify(error);
        return kind == RedisErrorKind.WRONG_TYPE || kind == RedisErrorKind.NO_PERM || kind == RedisErrorKind.ERR;
    }

    static ShardFailure of(Throwable error) {
        return switch (RedisErrorKind.classify(error)) {
            case FENCED -> FENCED;
            case NO_OWNER -> NO_OWNER;
            case NO_GROUP -> NO_GROUP;
            case NO_FUNCTION -> NO_LIBRARY;
            default -> TRANSIENT;
        };
    }
}
