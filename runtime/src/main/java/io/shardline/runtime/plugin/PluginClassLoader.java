package io.shardline.runtime.plugin;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Objects;

/**
 * The class loader of one plugin (one jar, or one folder of jars and classes on {@code plugin.path}):
 * child-first for every class {@link PluginUtils#shouldLoadInIsolation(String)} accepts, parent-first for
 * the JDK, the Shardline plugin API and SLF4J, so a plugin can bundle any library version without
 * clashing with the worker's or another plugin's.
 *
 * <p>Resources are looked up in the plugin first, then in the parent ({@link #getResources} lists the
 * plugin's before the parent's). Registered as parallel capable: classes are loaded under a per-name
 * lock, never under the loader's monitor (Kafka KAFKA-7421), so plugins may load classes from several
 * threads at once.
 */
public final class PluginClassLoader extends URLClassLoader {

    static {
        ClassLoader.registerAsParallelCapable();
    }

    private final Path location;

    /**
     * @param location the plugin's jar or folder, used in messages and listings
     * @param urls the jars and class folders of the plugin
     * @param parent the worker's class loader
     */
    public PluginClassLoader(Path location, URL[] urls, ClassLoader parent) {
        super("plugin:" + location.getFileName(), urls, parent);
        this.location = Objects.requireNonNull(location, "location");
    }

    /** The plugin's jar or folder. */
    public Path location() {
        return location;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null && PluginUtils.shouldLoadInIsolation(name)) {
                try {
                    loaded = findClass(name);
                } catch (ClassNotFoundException e) {
                    loaded = null; // not bundled by the plugin: the parent may have it
                }
            }
            if (loaded == null) {
                loaded = super.loadClass(name, false);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    @Override
    public URL getResource(String name) {
        if (PluginUtils.shouldLoadResourceInIsolation(name)) {
            URL local = findResource(name);
            if (local != null) {
                return local;
            }
        }
        return super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        List<URL> all = new ArrayList<>();
        if (PluginUtils.shouldLoadResourceInIsolation(name)) {
            all.addAll(Collections.list(findResources(name)));
        }
        ClassLoader parent = getParent();
        if (parent != null) {
            for (URL url : Collections.list(parent.getResources(name))) {
                if (!all.contains(url)) {
                    all.add(url);
                }
            }
        }
        return Collections.enumeration(all);
    }

    @Override
    public String toString() {
        return "PluginClassLoader{" + location + "}";
    }
}
