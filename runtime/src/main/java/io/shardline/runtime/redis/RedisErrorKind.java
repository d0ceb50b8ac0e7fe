package io.shardline.runtime.redis;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a failed Redis call means, read from its error reply in one place: the error code Redis (or one of
 * Shardline's scripts, docs/protocol.md) puts first in the reply, plus the few replies whose meaning is in their
 * text ({@code ERR Function not found}, {@code ERR max number of clients reached}) or that a script wraps
 * ({@code NOGROUP} anywhere in the reply). Everything that is not an error reply (a timeout, a closed connection,
 * a full wait queue) is {@link #OTHER}. Callers decide what to do by kind, never by matching the message.
 *
 * <p>Immutable and thread-safe.
 */
public enum RedisErrorKind {

    /** Shardline's fence: another member or owner epoch owns the shard ({@code FENCED <key> owner=.. epoch=..}). */
    FENCED("FENCED"),
    /** Shardline's fence: no owner is recorded for the shard yet ({@code NOOWNER <key> has no owner}). */
    NO_OWNER("NOOWNER"),
    /** Shardline's owner-key write: the key holds a newer owner epoch ({@code STALE_EPOCH <key> owner=.. epoch=..}). */
    STALE_EPOCH("STALE_EPOCH"),
    /** Shardline's group log: the writer's leader epoch is not the current one ({@code STALE_LEADER_EPOCH e r}). */
    STALE_LEADER_EPOCH("STALE_LEADER_EPOCH"),
    /** Shardline's group log: the writer's expected store revision is not the current one. */
    REVISION_MISMATCH("REVISION_MISMATCH"),
    /** The consumer group does not exist ({@code NOGROUP}, also inside a script's error). */
    NO_GROUP("NOGROUP"),
    /** The consumer group exists already ({@code BUSYGROUP} from {@code XGROUP CREATE}). */
    BUSY_GROUP("BUSYGROUP"),
    /** The script is not in Redis's script cache ({@code NOSCRIPT} from {@code EVALSHA}). */
    NO_SCRIPT("NOSCRIPT"),
    /** The function library is not loaded ({@code ERR Function not found}: Redis restarted or failed over). */
    NO_FUNCTION("ERR"),
    /** A key holds another type than the command needs ({@code WRONGTYPE}). */
    WRONG_TYPE("WRONGTYPE"),
    /** The ACL user lacks a permission ({@code NOPERM}). */
    NO_PERM("NOPERM"),
    /** Authentication failed ({@code WRONGPASS}). */
    WRONG_PASS("WRONGPASS"),
    /** Authentication is required ({@code NOAUTH}). */
    NO_AUTH("NOAUTH"),
    /** Redis ran out of client connections ({@code ERR max number of clients reached}): transient. */
    TOO_MANY_CLIENTS("ERR"),
    /** Any other {@code ERR} reply: Redis rejects the command as it was sent. */
    ERR("ERR"),
    /** Not an error reply this enum names: a timeout, a closed connection, a full wait queue, another code. */
    OTHER("");

    /** The kinds named by their own leading error code (the {@code ERR} family is read from the text). */
    private static final Map<String, RedisErrorKind> BY_CODE = Stream.of(values())
            .filter(k -> !k.code.isEmpty() && !k.code.equals("ERR"))
            .collect(Collectors.toUnmodifiableMap(k -> k.code, Function.identity()));

    private final String code;

    RedisErrorKind(String code) {
        this.code = code;
    }

    /** The error code this kind's replies start with ({@code ""} for {@link #OTHER}). */
    public String code() {
        return code;
    }

    /** The kind of a failed call, from its message (a null failure or message is {@link #OTHER}). */
    public static RedisErrorKind classify(Throwable error) {
        return error == null ? OTHER : classify(error.getMessage());
    }

    /** The kind of an error reply's text. */
    public static RedisErrorKind classify(String message) {
        if (message == null || message.isEmpty()) {
            return OTHER;
        }
        int space = message.indexOf(' ');
        String first = space < 0 ? message : message.substring(0, space);
        RedisErrorKind byCode = BY_CODE.get(first);
        if (byCode != null) {
            return byCode;
        }
        // A script's error can carry the failing command's reply after its own prefix.
        if (message.contains("NOGROUP")) {
            return NO_GROUP;
        }
        if (message.contains("Function not found") || message.contains("function not found")) {
            return NO_FUNCTION;
        }
        if (first.equals("ERR")) {
            return message.contains("max number of clients") ? TOO_MANY_CLIENTS : ERR;
        }
        return OTHER;
    }

    /** Whether the call was refused for its credentials or permissions ({@code NOPERM}, {@code WRONGPASS}, {@code NOAUTH}). */
    public boolean refusal() {
        return this == NO_PERM || this == WRONG_PASS || this == NO_AUTH;
    }
}
