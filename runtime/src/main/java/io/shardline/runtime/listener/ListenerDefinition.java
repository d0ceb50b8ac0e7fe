package io.shardline.runtime.listener;

import io.shardline.api.config.ConfigValues;
import io.shardline.runtime.plugin.PluginDesc;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A validated listener: its settings, the handler plugin they name, and the handler's own parsed
 * settings. Immutable.
 *
 * @param config the listener settings
 * @param handler the handler plugin
 * @param handlerConfig the {@code handler.config.*} keys parsed by the handler's definition
 * @param file the listener file
 * @param revision the version of the definition: a file's modification time in ms, a stored (REST) listener's
 *     revision; sent with the group configuration so that the coordinator keeps the newest (0: unversioned)
 */
public record ListenerDefinition(ListenerConfig config, PluginDesc handler, ConfigValues handlerConfig, Path file,
                                 long revision) {

    /** An unversioned definition (revision 0). */
    public ListenerDefinition(ListenerConfig config, PluginDesc handler, ConfigValues handlerConfig, Path file) {
        this(config, handler, handlerConfig, file, 0);
    }

    /** A copy of revision {@code newRevision}. */
    public ListenerDefinition withRevision(long newRevision) {
        return new ListenerDefinition(config, handler, handlerConfig, file, newRevision);
    }

    /** Validates the fields. */
    public ListenerDefinition {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(handlerConfig, "handlerConfig");
        Objects.requireNonNull(file, "file");
    }

    /** The listener name. */
    public String name() {
        return config.name();
    }

    /** Every key of the definition with its text as written (placeholders unresolved), sorted by key. */
    public Map<String, String> rawConfig() {
        Map<String, String> raw = new TreeMap<>();
        config.values().raw().values().forEach((k, v) -> raw.put(k, v.text()));
        return Collections.unmodifiableMap(raw);
    }
}
