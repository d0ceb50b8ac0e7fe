package io.shardline.runtime.plugin;

import java.util.Objects;

/**
 * One discovered plugin class. Immutable.
 *
 * @param type the SPI it implements, e.g. {@code io.shardline.api.handler.Handler}
 * @param className its fully qualified class name
 * @param alias the short name it can be selected by
 * @param version its declared version ({@code unknown} when it declares none)
 * @param location the plugin jar or folder, or {@code classpath} for a class on the worker's own class path
 * @param loader the class loader it was loaded by
 */
public record PluginDesc(String type, String className, String alias, String version, String location, ClassLoader loader) {

    /** Validates the fields. */
    public PluginDesc {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(alias, "alias");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(loader, "loader");
    }

    /** True when {@code nameOrAlias} selects this plugin (class name exactly, alias ignoring case). */
    public boolean matches(String nameOrAlias) {
        return className.equals(nameOrAlias) || alias.equalsIgnoreCase(nameOrAlias);
    }
}
