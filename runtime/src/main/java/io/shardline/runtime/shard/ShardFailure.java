package io.shardline.runtime.shard;

/**
 * How a failed shard command is treated, from its error message. Stateless.
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
        String msg = String.valueOf(error.getMessage());
        return msg.startsWith("WRONGTYPE") || msg.startsWith("NOPERM")
                || (msg.startsWith("ERR") && !msg.contains("max number of clients"));
    }

    static ShardFailure of(Throwable error) {
        String msg = String.valueOf(error.getMessage());
        if (msg.startsWith("FENCED")) {
            return FENCED;
        }
        if (msg.startsWith("NOOWNER")) {
            return NO_OWNER;
        }
        if (msg.contains("NOGROUP")) {
            return NO_GROUP;
        }
        if (msg.contains("Function not found") || msg.contains("function not found")) {
            return NO_LIBRARY;
        }
        return TRANSIENT;
    }
}
