package io.shardline.runtime.plugin;

import java.util.Objects;

/**
 * A plugin (or one class of it) that could not be loaded: reported in the worker's log and plugin
 * listing, never fatal for the worker or for other plugins. Immutable.
 *
 * @param location the plugin jar or folder ({@code classpath} for the worker's own class path)
 * @param className the class concerned, or empty when the whole location failed
 * @param reason what went wrong, in one sentence a user can act on
 */
public record PluginError(String location, String className, String reason) {

    /** Validates the fields. */
    public PluginError {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(reason, "reason");
    }

    /** {@code <location>: <class>: <reason>}. */
    @Override
    public String toString() {
        return location + (className.isEmpty() ? "" : ": " + className) + ": " + reason;
    }
}
