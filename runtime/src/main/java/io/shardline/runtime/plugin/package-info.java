/**
 * Plugin isolation as Kafka Connect does it: one child-first {@link io.shardline.runtime.plugin.PluginClassLoader} per location on
 * {@code plugin.path}, discovery through {@code META-INF/services} ({@link io.shardline.runtime.plugin.PluginScanner}), and
 * {@link io.shardline.runtime.plugin.LoaderSwap} around every call into plugin code. docs/plugins.md.
 */
package io.shardline.runtime.plugin;
