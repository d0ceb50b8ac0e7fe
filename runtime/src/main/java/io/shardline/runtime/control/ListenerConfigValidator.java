package io.shardline.runtime.control;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.config.ConfigError;
import io.shardline.api.config.ConfigKey;
import io.shardline.api.config.ConfigType;
import io.shardline.api.config.ConfigValues;
import io.shardline.api.config.Password;
import io.shardline.api.config.Placeholders;
import io.shardline.api.config.RawConfig;
import io.shardline.api.handler.Handler;
import io.shardline.runtime.listener.ListenerConfig;
import io.shardline.runtime.listener.ListenerDefinition;
import io.shardline.runtime.plugin.AssignorPlugins;
import io.shardline.runtime.plugin.LoaderSwap;
import io.shardline.runtime.plugin.PluginDesc;
import io.shardline.runtime.plugin.PluginException;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.rest.entity.ConfigErrorInfo;
import io.shardline.runtime.rest.entity.ConfigKeyInfo;
import io.shardline.runtime.rest.entity.ValidationResult;
import io.shardline.runtime.config.WorkerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The one validator of listener configurations, from files and stored listeners ({@link #definition}, through
 * {@link ListenerLoader}) and submitted over REST ({@link #validate}), all errors at once: the name, the listener keys
 * against the listener definition, the assignor and the handler against the discovered plugins, the
 * {@code handler.config.} keys against the handler plugin's own {@link ConfigDef}. Only discovered handler plugins are
 * ever looked up or instantiated (over REST, a name that is not one is a 404 before any class is touched).
 *
 * <p>Placeholders ({@code ${env:..}}, {@code ${file:..}}) are <em>not</em> resolved for REST callers, and
 * only those the worker's {@link RestConfigPolicy} allows are accepted at all: anything else would let
 * anyone who can reach the API read the worker's environment and files (Kafka's CVE-2024-31141), for
 * example by sending them to a webhook. An allowed placeholder's value is not checked here; the worker that
 * runs the listener checks the policy again and resolves it. A PASSWORD-typed value must be an (allowed)
 * placeholder: a configuration is stored in Redis, and a secret is not stored there in clear. Password
 * values, and values of keys that look like secrets, are never echoed.
 *
 * <p>Thread-safe. Instantiating a handler runs plugin code: call {@link #validate} and
 * {@link #handlerDefinition} off the event loop.
 */
public final class ListenerConfigValidator {

    /** The prefix of handler settings in a listener configuration. */
    public static final String HANDLER_PREFIX = ListenerConfig.HANDLER_PREFIX;
    /** The listener key naming the handler plugin. */
    public static final String HANDLER_KEY = "handler";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    private static final Pattern SECRET_NAME = Pattern.compile("(?i).*(password|secret|token|credential|apikey|api\\.key).*");
    private static final Placeholders UNRESOLVED = new Placeholders(name -> {
        throw new IllegalStateException("placeholders are not resolved over REST");
    });

    private final Plugins plugins;
    private final ConfigDef listenerDefinition;
    private final RestConfigPolicy policy;
    private final Map<String, ConfigDef> handlerDefinitions = new ConcurrentHashMap<>();

    /**
     * A validator.
     *
     * @param plugins the worker's discovered plugins
     * @param listenerDefinition the definition of listener keys; must declare the {@code handler.config.}
     *     prefix (the handler's keys are checked by the handler's own definition)
     */
    public ListenerConfigValidator(Plugins plugins, ConfigDef listenerDefinition) {
        this(plugins, listenerDefinition, RestConfigPolicy.NONE);
    }

    /** A validator that accepts the placeholders {@code policy} allows (and no others). */
    public ListenerConfigValidator(Plugins plugins, ConfigDef listenerDefinition, RestConfigPolicy policy) {
        this.plugins = Objects.requireNonNull(plugins, "plugins");
        this.listenerDefinition = Objects.requireNonNull(listenerDefinition, "listenerDefinition");
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    /**
     * The discovered handler plugin named {@code nameOrAlias}.
     *
     * @throws ControlPlaneException 404 listing the known handlers when there is none
     */
    public PluginDesc handler(String nameOrAlias) {
        return plugins.find(Handler.class, nameOrAlias).orElseThrow(() -> ControlPlaneException.notFound(
                "no handler plugin '" + nameOrAlias + "'; installed handlers: " + plugins.handlers().stream()
                        .map(PluginDesc::className).sorted().collect(Collectors.joining(", "))));
    }

    /** The settings {@code desc} accepts (instantiates the plugin once, under its class loader). */
    public ConfigDef handlerDefinition(PluginDesc desc) {
        return handlerDefinitions.computeIfAbsent(desc.className() + "@" + desc.location(), k -> {
            Handler handler = Plugins.newInstance(desc, Handler.class);
            try (var swap = Plugins.withClassLoader(desc.loader())) {
                ConfigDef def = handler.config();
                return def == null ? new ConfigDef() : def;
            } catch (RuntimeException e) {
                throw new PluginException("plugin " + desc.className() + " from " + desc.location()
                        + ": config() threw " + e, e);
            }
        });
    }

    /**
     * Validates {@code config} as the configuration of a listener using handler {@code pluginClass}.
     *
     * @throws ControlPlaneException 404 when {@code pluginClass} is not a discovered handler
     */
    public ValidationResult validate(String pluginClass, Map<String, String> config) {
        PluginDesc desc = handler(pluginClass);
        Map<String, String> submitted = new LinkedHashMap<>(config);
        List<ConfigError> errors = new ArrayList<>();
        String named = submitted.get(HANDLER_KEY);
        if (named == null || named.isBlank()) {
            submitted.put(HANDLER_KEY, desc.className());
        } else if (!desc.matches(named.trim())) {
            errors.add(new ConfigError(HANDLER_KEY, named, null, 0,
                    "names a different handler than the validated plugin " + desc.className()));
        }
        Set<String> unresolved = new HashSet<>();
        submitted.forEach((k, v) -> {
            if (v != null && Placeholders.containsPlaceholder(v)) {
                unresolved.add(k);
            }
        });
        Map<String, String> checked = new TreeMap<>(submitted);
        checked.keySet().removeAll(unresolved);
        RawConfig raw = RawConfig.of(checked);
        errors.addAll(listenerDefinition.validate(raw, UNRESOLVED));
        checkAssignor(raw, errors);
        ConfigDef handlerDef = handlerDefinition(desc);
        errors.addAll(handlerProblems(handlerDef, raw, UNRESOLVED));
        Set<String> secretKeys = secretKeys(handlerDef);
        List<ConfigError> refused = new ArrayList<>();
        policy.problems(submitted).forEach((key, reasons) ->
                reasons.forEach(reason -> refused.add(new ConfigError(key, submitted.get(key), null, 0, reason))));
        for (String key : secretKeys) {
            String value = submitted.get(key);
            if (value != null && !value.isEmpty() && !Placeholders.containsPlaceholder(value)) {
                refused.add(new ConfigError(key, value, null, 0, "a secret is not stored in Redis in clear: write it "
                        + "as ${env:NAME} or ${file:/dir/file.properties:key}, allowed in the worker's file by "
                        + WorkerConfig.REST_CONFIG_ALLOWED_ENV_CONFIG + " or " + WorkerConfig.REST_CONFIG_ALLOWED_DIRS_CONFIG
                        + " (or define the listener in a file of listeners.dir)"));
            }
        }
        List<ConfigErrorInfo> infos = java.util.stream.Stream.concat(errors.stream()
                .filter(e -> !unresolved.contains(e.key())), refused.stream())
                .map(e -> new ConfigErrorInfo(e.key(), secretKeys.contains(e.key()) || SECRET_NAME.matcher(e.key())
                        .matches() ? hide(e.value()) : Password.maskUserInfo(e.value()), e.reason()))
                .sorted(Comparator.comparing(ConfigErrorInfo::key))
                .toList();
        return new ValidationResult(desc.className(), infos.size(), infos, definition(handlerDef));
    }

    /**
     * Whether {@code name} is a valid listener name: 1-128 letters, digits, {@code .}, {@code _} or {@code -},
     * starting with a letter or digit.
     */
    public static boolean validName(String name) {
        return NAME.matcher(name).matches();
    }

    /**
     * Validates the configuration of listener {@code name} from a file or the store, placeholders resolved by
     * {@code placeholders}: the listener keys, the assignor, the handler and its keys. Every problem goes to
     * {@code errors}, with the file and line {@code raw} read it from; the definition only when there is none.
     *
     * @param source the file, or {@link ListenerLoader#storedSource} for a stored listener
     */
    public Optional<ListenerDefinition> definition(String name, RawConfig raw, Path source, Placeholders placeholders,
                                                   List<ConfigError> errors) {
        int before = errors.size();
        errors.addAll(listenerDefinition.validate(raw, placeholders));
        checkAssignor(raw, errors);
        Optional<PluginDesc> handler = findHandler(raw, errors);
        if (handler.isEmpty() || errors.size() > before) {
            handler.ifPresent(h -> validateHandlerConfig(h, raw, placeholders, errors));
            return Optional.empty();
        }
        ConfigValues handlerConfig = validateHandlerConfig(handler.get(), raw, placeholders, errors);
        if (errors.size() > before) {
            return Optional.empty();
        }
        ConfigValues values = listenerDefinition.parse(raw, placeholders);
        return Optional.of(new ListenerDefinition(new ListenerConfig(name, values), handler.get(), handlerConfig, source));
    }

    /** The listener's assignor must be a built-in or an assignor plugin this worker discovered. */
    private void checkAssignor(RawConfig raw, List<ConfigError> errors) {
        Optional<RawConfig.RawValue> value = raw.get(ListenerConfig.ASSIGNOR_CONFIG);
        if (value.isEmpty() || value.get().text().isBlank()) {
            return; // the default, or reported by the definition
        }
        String nameOrClass = value.get().text().trim();
        new AssignorPlugins(plugins).problem(nameOrClass).ifPresent(reason -> errors.add(new ConfigError(
                ListenerConfig.ASSIGNOR_CONFIG, nameOrClass, value.get().file(), value.get().line(), reason)));
    }

    private Optional<PluginDesc> findHandler(RawConfig raw, List<ConfigError> errors) {
        Optional<RawConfig.RawValue> value = raw.get(ListenerConfig.HANDLER_CONFIG);
        if (value.isEmpty() || value.get().text().isBlank()) {
            return Optional.empty(); // reported as required by the definition
        }
        String nameOrClass = value.get().text().trim();
        Optional<PluginDesc> found = plugins.find(Handler.class, nameOrClass);
        if (found.isEmpty()) {
            String reason;
            try {
                plugins.newHandler(nameOrClass);
                reason = "no such handler plugin";
            } catch (PluginException e) {
                reason = e.getMessage();
            }
            errors.add(new ConfigError(ListenerConfig.HANDLER_CONFIG, nameOrClass, value.get().file(), value.get().line(), reason));
        }
        return found;
    }

    private static ConfigValues validateHandlerConfig(PluginDesc handler, RawConfig raw, Placeholders placeholders, List<ConfigError> errors) {
        ConfigDef definition;
        try (LoaderSwap swap = Plugins.withClassLoader(handler.loader())) {
            definition = Plugins.newInstance(handler, Handler.class).config();
        } catch (RuntimeException | LinkageError e) {
            Optional<RawConfig.RawValue> source = raw.get(ListenerConfig.HANDLER_CONFIG);
            errors.add(new ConfigError(ListenerConfig.HANDLER_CONFIG, handler.className(), source.map(RawConfig.RawValue::file).orElse(null),
                    source.map(RawConfig.RawValue::line).orElse(0), "the handler's config() failed: " + e));
            return null;
        }
        List<ConfigError> handlerErrors = handlerProblems(definition, raw, placeholders);
        errors.addAll(handlerErrors);
        return handlerErrors.isEmpty() ? definition.parse(raw.subset(ListenerConfig.HANDLER_PREFIX), placeholders) : null;
    }

    /** The problems of {@code raw}'s {@code handler.config.} keys against the handler's {@code definition}, prefixed. */
    private static List<ConfigError> handlerProblems(ConfigDef definition, RawConfig raw, Placeholders placeholders) {
        List<ConfigError> out = new ArrayList<>();
        for (ConfigError e : definition.validate(raw.subset(ListenerConfig.HANDLER_PREFIX), placeholders)) {
            out.add(new ConfigError(e.key() == null ? null : ListenerConfig.HANDLER_PREFIX + e.key(), e.value(),
                    e.file() == null ? raw.file() : e.file(), e.line(), e.reason()));
        }
        return out;
    }

    /**
     * {@code config} with the values of secret keys (password-typed in either definition, or named like
     * a secret) replaced by {@code [hidden]}: what REST shows of a stored configuration.
     */
    public Map<String, String> hideSecrets(Map<String, String> config) {
        Set<String> secretKeys = secretKeys(null);
        Optional<PluginDesc> desc = Optional.ofNullable(config.get(HANDLER_KEY))
                .flatMap(h -> plugins.find(Handler.class, h.trim()));
        desc.ifPresent(d -> {
            try {
                secretKeys.addAll(secretKeys(handlerDefinition(d)));
            } catch (RuntimeException e) {
                // the plugin cannot describe itself: fall back to the name rule
            }
        });
        Map<String, String> out = new TreeMap<>();
        config.forEach((k, v) -> out.put(k, secretKeys.contains(k) || SECRET_NAME.matcher(k).matches() ? hide(v)
                : Password.maskUserInfo(v)));
        return out;
    }

    private Set<String> secretKeys(ConfigDef handlerDef) {
        Set<String> out = new HashSet<>();
        for (ConfigKey key : listenerDefinition.keys()) {
            if (key.type() == ConfigType.PASSWORD) {
                out.add(key.name());
            }
        }
        if (handlerDef != null) {
            for (ConfigKey key : handlerDef.keys()) {
                if (key.type() == ConfigType.PASSWORD) {
                    out.add(HANDLER_PREFIX + key.name());
                }
            }
        }
        return out;
    }

    private List<ConfigKeyInfo> definition(ConfigDef handlerDef) {
        List<ConfigKeyInfo> out = new ArrayList<>();
        listenerDefinition.keys().forEach(k -> out.add(ConfigKeyInfo.of(k)));
        handlerDef.keys().forEach(k -> {
            ConfigKeyInfo info = ConfigKeyInfo.of(k);
            out.add(new ConfigKeyInfo(HANDLER_PREFIX + info.name(), info.type(), info.required(), info.defaultValue(),
                    info.importance(), info.documentation(), info.group()));
        });
        return out;
    }

    private static String hide(String value) {
        return value == null ? null : Password.HIDDEN;
    }
}
