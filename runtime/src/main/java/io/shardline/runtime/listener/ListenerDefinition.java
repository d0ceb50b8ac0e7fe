package io.shardline.runtime.listener;

import io.shardline.api.config.ConfigValues;
import io.shardline.runtime.plugin.PluginDesc;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A validated listener: its settings, the handler plugin they name, and the handler's own parsed
 * settings. Immutable.
 *
 * @param config the listener settings
 * @param handler the handler plugin
 * @param handlerConfig the {@code handler.config.*} keys parsed by the handler's definition
 * @param file the listener file
 */
public record ListenerDefinition(ListenerConfig config, PluginDesc handler, ConfigValues handlerConfig, Path file) {

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
}
