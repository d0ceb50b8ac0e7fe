package io.shardline.runtime.plugin;

import io.shardline.api.handler.Handler;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugins of one worker: what was found on {@code plugin.path} (and the worker's class path), what
 * failed and why, and the way to create plugin instances in isolation. Every call into plugin code goes
 * through {@link #withClassLoader(ClassLoader)} (see {@link HandlerPlugin}).
 *
 * <p>Thread-safe after {@link #load}: the lists are immutable.
 */
public final class Plugins implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Plugins.class);

    private final List<PluginDesc> plugins;
    private final List<PluginError> errors;
    private final List<PluginClassLoader> loaders;

    private Plugins(PluginScanner.Result result) {
        this.plugins = result.plugins();
        this.errors = result.errors();
        this.loaders = result.loaders();
    }

    /**
     * Loads every plugin below the given {@code plugin.path} entries; never throws for a broken plugin (see
     * {@link #errors()}).
     *
     * @param pluginPath folders or jars, in the order of the setting
     * @param parent the worker's class loader (the parent of every plugin loader)
     */
    public static Plugins load(List<Path> pluginPath, ClassLoader parent) {
        Plugins loaded = new Plugins(PluginScanner.scan(pluginPath, parent));
        LOG.info("Plugins: {} loaded, {} failed", loaded.plugins.size(), loaded.errors.size());
        return loaded;
    }

    /** Every usable plugin class, worker class path first, then {@code plugin.path} in order. */
    public List<PluginDesc> plugins() {
        return plugins;
    }

    /** Every plugin or plugin class that could not be loaded, with its location and reason. */
    public List<PluginError> errors() {
        return errors;
    }

    /** The usable handler plugins. */
    public List<PluginDesc> handlers() {
        return plugins.stream().filter(p -> p.type().equals(Handler.class.getName())).toList();
    }

    /** The plugin of the given SPI selected by class name or alias. */
    public Optional<PluginDesc> find(Class<?> spi, String nameOrAlias) {
        return plugins.stream()
                .filter(p -> p.type().equals(spi.getName()))
                .filter(p -> p.className().equals(nameOrAlias))
                .findFirst()
                .or(() -> plugins.stream()
                        .filter(p -> p.type().equals(spi.getName()) && p.matches(nameOrAlias))
                        .findFirst());
    }

    /**
     * A new, isolated instance of a handler.
     *
     * @param nameOrAlias the class name or alias from the listener file
     * @throws PluginException when no such handler exists (the message lists the known ones and any load
     *     error of that name) or it cannot be instantiated
     */
    public HandlerPlugin newHandler(String nameOrAlias) {
        PluginDesc desc = find(Handler.class, nameOrAlias).orElseThrow(() -> new PluginException(notFound(nameOrAlias)));
        return new HandlerPlugin(desc, newInstance(desc, Handler.class));
    }

    /** A new instance of {@code desc}'s class, created with its loader as the context loader. */
    public static <T> T newInstance(PluginDesc desc, Class<T> spi) {
        try (LoaderSwap swap = withClassLoader(desc.loader())) {
            Class<?> type = Class.forName(desc.className(), true, desc.loader());
            return spi.cast(type.getDeclaredConstructor().newInstance());
        } catch (InvocationTargetException e) {
            throw new PluginException("plugin " + desc.className() + " from " + desc.location()
                    + ": constructor threw " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
            throw new PluginException("plugin " + desc.className() + " from " + desc.location()
                    + " cannot be instantiated: " + e, e);
        }
    }

    /** Makes {@code loader} the context class loader until the returned swap is closed. */
    public static LoaderSwap withClassLoader(ClassLoader loader) {
        return LoaderSwap.swap(loader);
    }

    private String notFound(String nameOrAlias) {
        String known = handlers().stream().map(p -> p.alias() + " (" + p.className() + ")").collect(Collectors.joining(", "));
        String failed = errors.stream()
                .filter(e -> e.className().equals(nameOrAlias) || e.className().endsWith("." + nameOrAlias))
                .map(PluginError::toString)
                .collect(Collectors.joining("; "));
        return "no handler plugin named '" + nameOrAlias + "'; known handlers: " + (known.isEmpty() ? "none" : known)
                + (failed.isEmpty() ? "" : "; it failed to load: " + failed);
    }

    /** Closes every plugin class loader; instances created from them must no longer be used. */
    @Override
    public void close() {
        for (PluginClassLoader loader : loaders) {
            try {
                loader.close();
            } catch (IOException e) {
                LOG.warn("Could not close {}", loader, e);
            }
        }
    }
}
