package io.shardline.api.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A declarative configuration definition: the keys, their types, defaults, validators,
 * importance, documentation and group; prefixes whose keys are passed through for another
 * definition to check; and cross-field rules. One definition drives parsing, validation,
 * typed access ({@link ConfigValues}) and generated documentation ({@link ConfigDocs}).
 *
 * <p>Validation reports every problem at once, each as a {@link ConfigError} with key, value (never
 * a secret), file, line and reason: unknown keys (with a "did you mean" suggestion), unresolvable
 * placeholders, values of the wrong type or failing their validator, missing required keys, and
 * broken cross-field rules.
 *
 * <p>Define keys once at start-up, then share: the definition is not thread-safe while keys are
 * being added and safe to use from any thread afterwards.
 */
public final class ConfigDef {

    /**
     * A cross-field rule: if {@code holds} is false, {@code key} is reported with {@code reason}.
     *
     * @param key the key blamed for a violation
     * @param reason what must be true, phrased as advice
     * @param holds the condition over the parsed values
     */
    public record Rule(String key, String reason, Predicate<ConfigValues> holds) {
        /** Validates the fields. */
        public Rule {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(holds, "holds");
        }
    }

    /**
     * A prefix whose keys belong to another definition (e.g. {@code handler.} settings of a plugin).
     *
     * @param prefix the prefix, ending with a dot
     * @param doc what the keys configure, for generated docs
     */
    public record Prefix(String prefix, String doc) {
        /** Validates the prefix ends with a dot. */
        public Prefix {
            Objects.requireNonNull(doc, "doc");
            if (prefix == null || !prefix.endsWith(".")) {
                throw new IllegalArgumentException("a config prefix must end with '.': " + prefix);
            }
        }
    }

    /**
     * Unknown keys whose names look like secrets (also misspelled: {@code passwrd}, {@code pwd}) have their
     * value hidden in errors, as have those whose closest known key is a PASSWORD.
     */
    private static final Pattern SECRET_NAME = Pattern.compile(
            "(?i)(pass|pwd|secret|token|cred|auth|private|apikey|api\\.key)");

    private final Map<String, ConfigKey> keys = new LinkedHashMap<>();
    private final List<Prefix> prefixes = new ArrayList<>();
    private final List<Rule> rules = new ArrayList<>();

    /** Adds a key; see {@link ConfigKey} for the meaning of a {@code null} or {@link ConfigKey#NO_DEFAULT} default. */
    public ConfigDef define(ConfigKey key) {
        if (keys.putIfAbsent(key.name(), key) != null) {
            throw new IllegalArgumentException("config key '" + key.name() + "' is defined twice");
        }
        return this;
    }

    /** Adds a key with a default ({@code null} = optional) in a documentation group. */
    public ConfigDef define(String name, ConfigType type, Object defaultValue, Validator validator,
                            Importance importance, String doc, String group) {
        return define(new ConfigKey(name, type, defaultValue, validator, importance, doc, group));
    }

    /** Adds a key with a default ({@code null} = optional) outside any group. */
    public ConfigDef define(String name, ConfigType type, Object defaultValue, Validator validator,
                            Importance importance, String doc) {
        return define(name, type, defaultValue, validator, importance, doc, "");
    }

    /** Adds a required key (no default) in a documentation group. */
    public ConfigDef defineRequired(String name, ConfigType type, Validator validator,
                                    Importance importance, String doc, String group) {
        return define(name, type, ConfigKey.NO_DEFAULT, validator, importance, doc, group);
    }

    /** Accepts every key under {@code prefix} without checking it here (another definition will). */
    public ConfigDef definePrefix(String prefix, String doc) {
        prefixes.add(new Prefix(prefix, doc));
        return this;
    }

    /**
     * Adds a cross-field rule, checked after every key parsed; a rule that reads a key whose own
     * value is invalid is skipped (that key is already reported).
     */
    public ConfigDef require(String key, String reason, Predicate<ConfigValues> holds) {
        rules.add(new Rule(key, reason, holds));
        return this;
    }

    /** The definition of {@code name}, if any. */
    public Optional<ConfigKey> key(String name) {
        return Optional.ofNullable(keys.get(name));
    }

    /** All keys in definition order. */
    public List<ConfigKey> keys() {
        return List.copyOf(keys.values());
    }

    /** All pass-through prefixes. */
    public List<Prefix> prefixes() {
        return Collections.unmodifiableList(prefixes);
    }

    /** All cross-field rules. */
    public List<Rule> rules() {
        return Collections.unmodifiableList(rules);
    }

    /** Parses and validates, resolving placeholders from the process environment. */
    public ConfigValues parse(RawConfig raw) {
        return parse(raw, Placeholders.system());
    }

    /** Parses and validates plain key/value pairs (no file). */
    public ConfigValues parse(Map<String, String> map) {
        return parse(RawConfig.of(map));
    }

    /**
     * Parses and validates.
     *
     * @throws ConfigException listing every error when the configuration is invalid
     */
    public ConfigValues parse(RawConfig raw, Placeholders placeholders) {
        List<ConfigError> errors = new ArrayList<>();
        ConfigValues values = evaluate(raw, placeholders, errors);
        if (!errors.isEmpty()) {
            throw new ConfigException(errors);
        }
        return values;
    }

    /** Every error in {@code raw}; empty when it is valid. */
    public List<ConfigError> validate(RawConfig raw, Placeholders placeholders) {
        List<ConfigError> errors = new ArrayList<>();
        evaluate(raw, placeholders, errors);
        return List.copyOf(errors);
    }

    private ConfigValues evaluate(RawConfig raw, Placeholders placeholders, List<ConfigError> errors) {
        errors.addAll(raw.errors());
        Map<String, Object> parsed = new HashMap<>();
        Set<String> failed = new HashSet<>();
        for (RawConfig.RawValue value : raw.values().values()) {
            ConfigKey key = keys.get(value.key());
            if (key == null) {
                if (!underPrefix(value.key())) {
                    errors.add(unknownKey(value));
                }
                continue;
            }
            try {
                parsed.put(key.name(), parseOne(key, value, raw, placeholders));
            } catch (IllegalArgumentException e) {
                failed.add(key.name());
                errors.add(new ConfigError(key.name(), shown(key, value.text()), value.file(), value.line(),
                        e.getMessage()));
            }
        }
        for (ConfigKey key : keys.values()) {
            if (raw.get(key.name()).isPresent()) {
                continue;
            }
            if (key.required()) {
                failed.add(key.name());
                errors.add(new ConfigError(key.name(), null, raw.file(), 0,
                        "required and not set (it has no default)"));
            } else {
                parsed.put(key.name(), key.defaultValue());
            }
        }
        ConfigValues values = new ConfigValues(this, parsed, failed, raw);
        checkRules(values, raw, errors);
        return values;
    }

    private Object parseOne(ConfigKey key, RawConfig.RawValue value, RawConfig raw, Placeholders placeholders) {
        String text = placeholders.resolve(value.text(), raw.baseDir());
        Object typed = Values.parse(key.type(), text);
        String problem = key.validator().check(typed).orElse(null);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return typed;
    }

    private void checkRules(ConfigValues values, RawConfig raw, List<ConfigError> errors) {
        for (Rule rule : rules) {
            boolean holds;
            try {
                holds = rule.holds().test(values);
            } catch (ConfigValues.UnavailableValueException e) {
                continue;
            }
            if (!holds) {
                Optional<RawConfig.RawValue> source = raw.get(rule.key());
                ConfigKey key = keys.get(rule.key());
                String shown = source.map(s -> key == null ? Password.maskUserInfo(s.text()) : shown(key, s.text())).orElse(null);
                errors.add(new ConfigError(rule.key(), shown,
                        source.map(RawConfig.RawValue::file).orElse(raw.file()),
                        source.map(RawConfig.RawValue::line).orElse(0),
                        rule.reason()));
            }
        }
    }

    private boolean underPrefix(String name) {
        return prefixes.stream().anyMatch(p -> name.startsWith(p.prefix()));
    }

    private ConfigError unknownKey(RawConfig.RawValue value) {
        Optional<String> closest = Suggestions.closest(value.key(), keys.keySet());
        String reason = "unknown key" + closest.map(s -> " (did you mean '" + s + "'?)").orElse("");
        boolean secretLooking = SECRET_NAME.matcher(value.key()).find()
                || closest.map(k -> keys.get(k).type() == ConfigType.PASSWORD).orElse(false);
        String shown = secretLooking && !Placeholders.containsPlaceholder(value.text()) ? Password.HIDDEN
                : Password.maskUserInfo(value.text());
        return new ConfigError(value.key(), shown, value.file(), value.line(), reason);
    }

    /** The value as it may appear in an error: passwords hidden, placeholders unresolved. */
    private static String shown(ConfigKey key, String text) {
        return key.type() == ConfigType.PASSWORD ? Password.HIDDEN : Password.maskUserInfo(text);
    }
}
