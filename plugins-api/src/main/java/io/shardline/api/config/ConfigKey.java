package io.shardline.api.config;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The definition of one configuration key.
 *
 * <p>A key is <em>required</em> when its default is {@link #NO_DEFAULT}, <em>optional</em> when its
 * default is {@code null} (the value is then {@code null} unless set), and otherwise has the given
 * default. A {@code String} default of a non-string type is parsed as if it came from a file, so
 * {@code "1000"} works for an INT key. Invalid defaults are programming errors and throw
 * {@link IllegalArgumentException} at definition time.
 *
 * <p>Immutable.
 *
 * @param name dotted lower-case name, e.g. {@code session.timeout.ms}
 * @param type how the text is parsed
 * @param defaultValue the parsed default, {@code null} for optional keys, {@link #NO_DEFAULT} for required keys
 * @param validator checks a parsed, non-null value
 * @param importance how much users need to care
 * @param doc one or more sentences for generated documentation
 * @param group heading the key is listed under in documentation ({@code ""} for none)
 */
public record ConfigKey(
        String name,
        ConfigType type,
        Object defaultValue,
        Validator validator,
        Importance importance,
        String doc,
        String group) {

    /** Marks a required key: it has no default and must be set. */
    public static final Object NO_DEFAULT = new Object() {
        @Override
        public String toString() {
            return "(required)";
        }
    };

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_\\-]*(\\.[a-z0-9_\\-]+)*");

    /** Validates the definition and parses a textual default. */
    public ConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(validator, "validator");
        Objects.requireNonNull(importance, "importance");
        Objects.requireNonNull(doc, "doc");
        Objects.requireNonNull(group, "group");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("config key name '" + name + "' must be dotted lower-case words");
        }
        if (defaultValue != null && defaultValue != NO_DEFAULT) {
            defaultValue = normalizeDefault(name, type, defaultValue);
            String problem = validator.check(defaultValue).orElse(null);
            if (problem != null) {
                throw new IllegalArgumentException("default of config key '" + name + "' is invalid: " + problem);
            }
        }
    }

    /** Whether the key must be set because it has no default. */
    public boolean required() {
        return defaultValue == NO_DEFAULT;
    }

    /** The default as documentation text: {@code ""} for none, {@code [hidden]} for passwords. */
    public String defaultText() {
        if (defaultValue == null || required()) {
            return "";
        }
        return Values.display(type, defaultValue);
    }

    private static Object normalizeDefault(String name, ConfigType type, Object value) {
        if (value instanceof String text && type != ConfigType.STRING) {
            try {
                return Values.parse(type, text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("default of config key '" + name + "' is invalid: " + e.getMessage(), e);
            }
        }
        if (type == ConfigType.LONG && value instanceof Integer i) {
            return i.longValue();
        }
        if (type == ConfigType.DOUBLE && value instanceof Number n) {
            return n.doubleValue();
        }
        if (!Values.hasJavaType(type, value)) {
            throw new IllegalArgumentException("default of config key '" + name + "' is a "
                    + value.getClass().getSimpleName() + ", not a " + type.displayName());
        }
        return value;
    }
}
