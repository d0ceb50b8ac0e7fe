package io.shardline.runtime.redis;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns a failed Redis call into words for an operator: the message with the messages of its causes (a TLS
 * failure says why the handshake failed, not only "Failed to create SSL connection"), and whether Redis itself
 * refused the call (an error reply such as {@code NOPERM}, {@code WRONGPASS}, {@code NOAUTH}). Stateless.
 */
public final class RedisErrors {

    private static final int MAX_CAUSES = 6;

    private RedisErrors() {
    }

    /** {@code "Failed to create SSL connection: PKIX path building failed: ..."}: each distinct message once. */
    public static String describe(Throwable e) {
        List<String> parts = new ArrayList<>();
        Throwable t = e;
        for (int i = 0; t != null && i < MAX_CAUSES; i++, t = t.getCause()) {
            String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            if (parts.stream().noneMatch(p -> p.contains(m))) {
                parts.add(m);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return String.join(": ", parts);
    }

    /** Whether Redis answered with a refusal: a missing permission or failed authentication. */
    public static boolean isRefusal(Throwable e) {
        return RedisErrorKind.classify(e).refusal();
    }

    /** Whether Redis refused the command for a missing ACL permission ({@code NOPERM}). */
    public static boolean isNoPerm(Throwable e) {
        return RedisErrorKind.classify(e) == RedisErrorKind.NO_PERM;
    }

    /** What to do about a refusal, as a sentence to append (starting with ". "), or "". */
    static String hint(Throwable e) {
        if (isNoPerm(e)) {
            return ". Grant the ACL that bin/shardline redis-acl prints (docs/security.md, \"Redis\")";
        }
        return ". Check redis.user and redis.password";
    }
}
