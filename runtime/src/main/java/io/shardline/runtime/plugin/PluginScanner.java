package io.shardline.runtime.plugin;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.handler.Handler;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds plugins: one {@link PluginClassLoader} per location on {@code plugin.path} (see
 * {@link PluginUtils}), then the classes each location lists in its {@code META-INF/services} files for
 * the plugin SPIs ({@link Handler}, {@link Assignor}), found with {@link ServiceLoader}; no reflective
 * scanning. Each class is instantiated once, under its plugin's class loader, to check that it can be
 * (public no-argument constructor, static initialiser that does not throw) and to read its alias and
 * version.
 *
 * <p>Every failure (a missing folder, a corrupt jar, a listed class that is missing, not a subtype,
 * without public constructor, throwing while initialising) becomes a {@link PluginError} naming the
 * location and the reason; the scan always goes on with the next class and the next location.
 */
final class PluginScanner {

    static final String CLASSPATH = "classpath";
    private static final Logger LOG = LoggerFactory.getLogger(PluginScanner.class);
    private static final List<Class<?>> SPIS = List.of(Handler.class, Assignor.class);
    private static final int MAX_PROVIDERS_PER_LOCATION = 10_000;

    private final List<PluginDesc> found = new ArrayList<>();
    private final List<PluginError> errors = new ArrayList<>();
    private final List<PluginClassLoader> loaders = new ArrayList<>();

    /** The result of one scan. */
    record Result(List<PluginDesc> plugins, List<PluginError> errors, List<PluginClassLoader> loaders) {
    }

    /** Scans the worker's own class path (no isolation) and then every location below {@code pluginPath}. */
    static Result scan(List<Path> pluginPath, ClassLoader parent) {
        PluginScanner scanner = new PluginScanner();
        scanner.scanLoader(CLASSPATH, parent, parent);
        for (Path entry : pluginPath) {
            scanner.scanEntry(entry, parent);
        }
        return new Result(List.copyOf(scanner.found), List.copyOf(scanner.errors), List.copyOf(scanner.loaders));
    }

    private void scanEntry(Path entry, ClassLoader parent) {
        if (!Files.exists(entry)) {
            error(entry.toString(), "", "plugin.path entry does not exist");
            return;
        }
        List<Path> locations;
        try {
            locations = PluginUtils.pluginLocations(entry);
        } catch (IOException e) {
            error(entry.toString(), "", "cannot list the folder (" + e.getMessage() + ")");
            return;
        }
        for (Path location : locations) {
            scanLocation(location, parent);
        }
    }

    private void scanLocation(Path location, ClassLoader parent) {
        PluginClassLoader loader;
        try {
            loader = new PluginClassLoader(location, PluginUtils.pluginUrls(location), parent);
        } catch (InvalidPluginException e) {
            error(e.location().toString(), "", e.getMessage());
            return;
        } catch (IOException | RuntimeException e) {
            error(location.toString(), "", "cannot read the plugin (" + e + ")");
            return;
        }
        int before = found.size();
        scanLoader(location.toString(), loader, new LocalServicesView(loader));
        if (found.size() == before) {
            LOG.info("No plugin class listed in META-INF/services of {}; ignored", location);
            closeQuietly(loader);
        } else {
            loaders.add(loader);
        }
    }

    private void scanLoader(String location, ClassLoader loader, ClassLoader servicesView) {
        for (Class<?> spi : SPIS) {
            scanSpi(location, loader, servicesView, spi);
        }
    }

    private <S> void scanSpi(String location, ClassLoader loader, ClassLoader servicesView, Class<S> spi) {
        Iterator<S> it;
        try (LoaderSwap swap = LoaderSwap.swap(loader)) {
            it = ServiceLoader.load(spi, servicesView).iterator();
            for (int i = 0; i < MAX_PROVIDERS_PER_LOCATION; i++) {
                try {
                    if (!it.hasNext()) {
                        return;
                    }
                    S instance = it.next();
                    accept(location, loader, spi, instance);
                } catch (ServiceConfigurationError | LinkageError e) {
                    error(location, classNameIn(e), reason(e));
                } catch (RuntimeException e) {
                    error(location, "", "failed while listing " + spi.getSimpleName() + " plugins (" + e + ")");
                }
            }
        } catch (ServiceConfigurationError e) {
            error(location, "", reason(e));
        }
    }

    private <S> void accept(String location, ClassLoader loader, Class<S> spi, S instance) {
        String className = instance.getClass().getName();
        if (instance instanceof Handler && !(instance instanceof io.shardline.api.handler.SyncHandler)
                && !(instance instanceof io.shardline.api.handler.AsyncHandler)) {
            error(location, className, "implements Handler but neither SyncHandler nor AsyncHandler");
            return;
        }
        String alias;
        String version;
        try {
            alias = instance instanceof Handler h ? h.alias() : instance instanceof Assignor a ? a.name() : className;
            version = instance instanceof Handler h ? h.version() : versionOf(instance.getClass());
        } catch (RuntimeException | LinkageError e) {
            error(location, className, "alias()/version() threw " + e);
            return;
        }
        for (PluginDesc other : found) {
            if (other.type().equals(spi.getName()) && other.className().equals(className)) {
                error(location, className, "duplicate: the same class is also in " + other.location()
                        + "; that copy is used and this one is ignored");
                return;
            }
        }
        for (PluginDesc other : found) {
            if (other.type().equals(spi.getName()) && other.alias().equalsIgnoreCase(alias)) {
                error(location, className, "alias '" + alias + "' is already used by " + other.className()
                        + " in " + other.location() + "; select this class by its full name");
                alias = className;
            }
        }
        found.add(new PluginDesc(spi.getName(), className, alias, version == null ? "unknown" : version, location, loader));
        LOG.info("Loaded {} plugin {} (alias {}, version {}) from {}", spi.getSimpleName(), className, alias, version, location);
    }

    private static String versionOf(Class<?> type) {
        Package p = type.getPackage();
        return p == null || p.getImplementationVersion() == null ? "unknown" : p.getImplementationVersion();
    }

    private static String reason(Throwable e) {
        StringBuilder sb = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            sb.append("; caused by ").append(c);
        }
        return sb.toString();
    }

    private static String classNameIn(Throwable e) {
        String msg = String.valueOf(e.getMessage());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Provider ([\\w.$]+)|: ([\\w.$]+) (?:Unable|not a subtype)").matcher(msg);
        if (m.find()) {
            return m.group(1) != null ? m.group(1) : m.group(2);
        }
        return "";
    }

    private void error(String location, String className, String reason) {
        PluginError error = new PluginError(location, className, reason);
        LOG.error("Plugin not loaded: {}", error);
        errors.add(error);
    }

    private static void closeQuietly(PluginClassLoader loader) {
        try {
            loader.close();
        } catch (IOException e) {
            LOG.debug("Could not close {}", loader, e);
        }
    }

    /**
     * Lets {@link ServiceLoader} see only the services files of the plugin itself (not the worker's), while
     * classes are still defined by the plugin's loader.
     */
    private static final class LocalServicesView extends ClassLoader {

        static {
            ClassLoader.registerAsParallelCapable();
        }

        private final PluginClassLoader plugin;

        LocalServicesView(PluginClassLoader plugin) {
            super(plugin);
            this.plugin = plugin;
        }

        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            return plugin.findResources(name);
        }
    }
}
