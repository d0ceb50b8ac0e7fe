package io.shardline.api.config;

import java.util.Objects;

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

    /** Validates the value is non-null. */
    public Password {
        Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
        return HIDDEN;
    }
}
