package io.shardline.runtime.control;

import java.util.Objects;

/**
 * The result of a create-or-replace: the value and whether it was created (HTTP 201) or replaced (200).
 * Immutable.
 *
 * @param value the stored value
 * @param created true when nothing was stored under the name before
 * @param <T> the value type
 */
public record Upserted<T>(T value, boolean created) {

    /** Validates. */
    public Upserted {
        Objects.requireNonNull(value, "value");
    }
}
