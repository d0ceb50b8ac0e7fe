package io.shardline.api.config;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Checks one parsed configuration value. The value handed to {@link #check(Object)} has already
 * been converted to the key's {@link ConfigType} (Integer, Long, Double, Boolean, String,
 * {@code List<String>} or {@link Password}); unset optional keys are not validated.
 *
 * <p>Implementations must be immutable and thread-safe.
 */
@FunctionalInterface
public interface Validator {

    /**
     * Checks a value.
     *
     * @param value the parsed value, never null
     * @return empty when the value is valid, otherwise the reason it is not (a sentence fragment
     *     such as {@code "must be at least 1"})
     */
    Optional<String> check(Object value);

    /** Short description of the valid values for generated docs, e.g. {@code [1, 100]}; empty if none. */
    default String describe() {
        return "";
    }

    /** A validator that accepts a value only if both this and {@code other} accept it. */
    default Validator and(Validator other) {
        Objects.requireNonNull(other, "other");
        Validator self = this;
        String description = joinDescriptions(self.describe(), other.describe());
        return custom(description, value -> self.check(value).or(() -> other.check(value)));
    }

    /** Accepts every value. */
    static Validator any() {
        return value -> Optional.empty();
    }

    /** Numbers (INT, LONG, DOUBLE) greater than or equal to {@code min}. */
    static Validator atLeast(Number min) {
        Objects.requireNonNull(min, "min");
        return custom("[" + min + ", ...]", value -> compare(value, min) < 0
                ? Optional.of("must be at least " + min)
                : Optional.empty());
    }

    /** Numbers (INT, LONG, DOUBLE) within {@code [min, max]}, both inclusive. */
    static Validator between(Number min, Number max) {
        Objects.requireNonNull(min, "min");
        Objects.requireNonNull(max, "max");
        return custom("[" + min + ", " + max + "]", value -> {
            if (compare(value, min) < 0 || compare(value, max) > 0) {
                return Optional.of("must be between " + min + " and " + max);
            }
            return Optional.empty();
        });
    }

    /**
     * Strings equal to one of {@code allowed} (case-sensitive); for LIST keys every element must
     * be one of them.
     */
    static Validator oneOf(String... allowed) {
        List<String> options = List.of(allowed);
        return custom("one of " + options, value -> {
            Collection<?> items = value instanceof Collection<?> c ? c : List.of(value);
            for (Object item : items) {
                if (!options.contains(String.valueOf(item))) {
                    return Optional.of("'" + item + "' is not one of " + options);
                }
            }
            return Optional.empty();
        });
    }

    /** Strings and passwords that are not blank, lists that are not empty. */
    static Validator nonEmpty() {
        return custom("non-empty", value -> {
            boolean empty = value instanceof String s && s.isBlank()
                    || value instanceof Password p && p.value().isEmpty()
                    || value instanceof Collection<?> c && c.isEmpty();
            return empty ? Optional.of("must not be empty") : Optional.empty();
        });
    }

    /**
     * A validator from a function.
     *
     * @param description what is valid, for generated docs
     * @param check returns empty when valid, else the reason
     */
    static Validator custom(String description, Function<Object, Optional<String>> check) {
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(check, "check");
        return new Validator() {
            @Override
            public Optional<String> check(Object value) {
                return check.apply(value);
            }

            @Override
            public String describe() {
                return description;
            }
        };
    }

    private static int compare(Object value, Number bound) {
        if (!(value instanceof Number number)) {
            throw new IllegalArgumentException("a numeric validator was used on a " + value.getClass().getSimpleName());
        }
        if (number instanceof Double || bound instanceof Double) {
            return Double.compare(number.doubleValue(), bound.doubleValue());
        }
        return Long.compare(number.longValue(), bound.longValue());
    }

    private static String joinDescriptions(String a, String b) {
        if (a.isEmpty()) {
            return b;
        }
        return b.isEmpty() ? a : a + " and " + b;
    }
}
