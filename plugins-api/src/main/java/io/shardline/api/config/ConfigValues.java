package io.shardline.api.config;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A typed view of a parsed configuration: every defined key has a value (its default when not set;
 * {@code null} for unset optional keys). Built by {@link ConfigDef#parse(RawConfig)}.
 *
 * <p>Getters of primitive types throw {@link IllegalStateException} for an unset optional key;
 * getters of reference types return {@code null} then. Asking for an undefined key or the wrong
 * type throws {@link IllegalArgumentException}: that is a programming error, not a user error.
 *
 * <p>Immutable and thread-safe. {@link #toString()} hides passwords.
 */
public final class ConfigValues {

    private final ConfigDef definition;
    private final Map<String, Object> values;
    private final Set<String> unavailable;
    private final RawConfig raw;

    ConfigValues(ConfigDef definition, Map<String, Object> values, Set<String> unavailable, RawConfig raw) {
        this.definition = definition;
        this.values = Collections.unmodifiableMap(new HashMap<>(values));
        this.unavailable = Set.copyOf(unavailable);
        this.raw = raw;
    }

    /** The value of {@code key} as parsed (Integer, Long, Double, Boolean, String, List, Password), or null. */
    public Object get(String key) {
        ConfigKey def = definition.key(key)
                .orElseThrow(() -> new IllegalArgumentException("config key '" + key + "' is not defined"));
        if (unavailable.contains(key)) {
            throw new UnavailableValueException(def.name());
        }
        return values.get(key);
    }

    /** A STRING value, or null when unset. */
    public String getString(String key) {
        return typed(key, ConfigType.STRING, String.class);
    }

    /** A CLASS value (the class name), or null when unset. */
    public String getClassName(String key) {
        return typed(key, ConfigType.CLASS, String.class);
    }

    /** An INT value. */
    public int getInt(String key) {
        return present(key, typed(key, ConfigType.INT, Integer.class));
    }

    /** A LONG value. */
    public long getLong(String key) {
        return present(key, typed(key, ConfigType.LONG, Long.class));
    }

    /** A DOUBLE value. */
    public double getDouble(String key) {
        return present(key, typed(key, ConfigType.DOUBLE, Double.class));
    }

    /** A BOOLEAN value. */
    public boolean getBoolean(String key) {
        return present(key, typed(key, ConfigType.BOOLEAN, Boolean.class));
    }

    /** A LIST value (immutable), or null when unset. */
    @SuppressWarnings("unchecked")
    public List<String> getList(String key) {
        return typed(key, ConfigType.LIST, List.class);
    }

    /** A PASSWORD value, or null when unset. */
    public Password getPassword(String key) {
        return typed(key, ConfigType.PASSWORD, Password.class);
    }

    /** Whether the key was given explicitly (rather than defaulted). */
    public boolean isSet(String key) {
        return raw.get(key).isPresent();
    }

    /** Where the key's value came from, if it was given. */
    public Optional<RawConfig.RawValue> source(String key) {
        return raw.get(key);
    }

    /** The raw configuration this was parsed from. */
    public RawConfig raw() {
        return raw;
    }

    /** The raw keys under {@code prefix} with the prefix removed (see {@link ConfigDef#definePrefix}). */
    public RawConfig subset(String prefix) {
        return raw.subset(prefix);
    }

    /** The definition these values follow. */
    public ConfigDef definition() {
        return definition;
    }

    /** Every defined key and its value as display text (passwords hidden), sorted by key; for logging. */
    public Map<String, String> describe() {
        Map<String, String> out = new TreeMap<>();
        for (ConfigKey key : definition.keys()) {
            if (!unavailable.contains(key.name())) {
                out.put(key.name(), Values.display(key.type(), values.get(key.name())));
            }
        }
        return Collections.unmodifiableMap(out);
    }

    @Override
    public String toString() {
        return "ConfigValues" + describe();
    }

    private <T> T typed(String key, ConfigType type, Class<T> javaType) {
        Object value = get(key);
        ConfigType actual = definition.key(key).orElseThrow().type();
        if (actual != type) {
            throw new IllegalArgumentException("config key '" + key + "' is a " + actual.displayName()
                    + ", not a " + type.displayName());
        }
        return javaType.cast(value);
    }

    private static <T> T present(String key, T value) {
        if (value == null) {
            throw new IllegalStateException("config key '" + key + "' is not set and has no default");
        }
        return value;
    }

    /** Thrown to a cross-field rule that reads a key whose own value was invalid; the rule is skipped. */
    static final class UnavailableValueException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnavailableValueException(String key) {
            super("config key '" + key + "' has an invalid value", null, false, false);
        }
    }
}
