package io.shardline.api.config;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A secret configuration value. {@link #toString()} never reveals it; call {@link #value()} only
 * where the secret is handed to the system that needs it.
 *
 * <p>Immutable.
 *
 * @param value the secret text
 */
public record Password(String value) {

    /** What is printed instead of a secret. */
    public static final String HIDDEN = "[hidden]";

    /** {@code scheme://user:password@}: the password part of a URL's user info. */
    private static final Pattern USER_INFO = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://[^/@\\s:]*):[^/@\\s]*@");

    /** Validates the value is non-null. */
    public Password {
        Objects.requireNonNull(value, "value");
    }

    /**
     * {@code text} with the password of every URL in it hidden: {@code redis://user:pw@host} becomes
     * {@code redis://user:[hidden]@host} (also {@code redis://:pw@host}). Text without one is returned as is.
     */
    public static String maskUserInfo(String text) {
        return text == null || text.indexOf('@') < 0 ? text : USER_INFO.matcher(text).replaceAll("$1:" + HIDDEN + "@");
    }

    @Override
    public String toString() {
        return HIDDEN;
    }
}
