package io.shardline.api.handler;

import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The handler's settings, as given in its listener file under the prefix {@code handler.config.}
 * (the prefix is removed), parsed and validated against the handler's config definition before
 * {@link Handler#start(HandlerContext)} is called. Keys the definition declares are present with their
 * typed value (or default); keys it does not declare are present as strings.
 *
 * <p>Immutable and thread-safe.
 */
public interface HandlerConfig {

    /** Every setting, by key: typed values for declared keys, strings for the rest. Unmodifiable. */
    Map<String, Object> values();

    /** True when the key has a value (possibly its default). */
    default boolean contains(String key) {
        return values().get(key) != null;
    }

    /**
     * The value of {@code key}.
     *
     * @throws NoSuchElementException when the key has no value and no default
     */
    default Object value(String key) {
        Object v = values().get(key);
        if (v == null) {
            throw new NoSuchElementException("handler config has no value for '" + key + "'");
        }
        return v;
    }

    /** The value as a string ({@link Object#toString()} of a typed value). */
    default String getString(String key) {
        Object v = value(key);
        return v instanceof List<?> l ? String.join(",", l.stream().map(String::valueOf).toList()) : v.toString();
    }

    /** The value as an int (typed value, or a string parsed as a decimal int). */
    default int getInt(String key) {
        Object v = value(key);
        return v instanceof Number n ? n.intValue() : Integer.parseInt(v.toString().trim());
    }

    /** The value as a long (typed value, or a string parsed as a decimal long). */
    default long getLong(String key) {
        Object v = value(key);
        return v instanceof Number n ? n.longValue() : Long.parseLong(v.toString().trim());
    }

    /** The value as a double. */
    default double getDouble(String key) {
        Object v = value(key);
        return v instanceof Number n ? n.doubleValue() : Double.parseDouble(v.toString().trim());
    }

    /** The value as a boolean ({@code true}/{@code false}, case-insensitive, for string values). */
    default boolean getBoolean(String key) {
        Object v = value(key);
        return v instanceof Boolean b ? b : Boolean.parseBoolean(v.toString().trim());
    }

    /** The value as a list (typed value, or a comma-separated string split and trimmed). */
    default List<String> getList(String key) {
        Object v = value(key);
        if (v instanceof List<?> l) {
            return l.stream().map(String::valueOf).toList();
        }
        return List.of(v.toString().split("\\s*,\\s*")).stream().filter(s -> !s.isEmpty()).toList();
    }

    /** A config over a fixed map (for tests of handlers). */
    static HandlerConfig of(Map<String, ?> values) {
        Map<String, Object> copy = Map.copyOf(values);
        return () -> copy;
    }
}
