package io.shardline.runtime.plugin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The rules of plugin isolation and of the {@code plugin.path} layout (as Kafka Connect's
 * {@code PluginUtils}, with a shorter parent-first list: plugins see only the JDK, the plugin API and
 * SLF4J from the worker).
 *
 * <p>Layout: every {@code plugin.path} entry is a folder or a jar. A jar entry is one plugin. In a folder,
 * every jar directly inside is one plugin, and every sub-folder is one plugin made of all the jars below
 * it plus the sub-folder itself as a class folder (for a package tree of {@code .class} files). Other
 * files are ignored. Symbolic links are followed. Stateless.
 */
public final class PluginUtils {

    /** Classes the worker provides; a plugin never loads its own copy of them. */
    private static final Pattern PARENT_FIRST = Pattern.compile(
            "^(?:java\\.|javax\\.|jdk\\.|sun\\.|com\\.sun\\.|org\\.w3c\\.dom\\.|org\\.xml\\.sax\\.|org\\.ietf\\.jgss\\."
                    + "|io\\.shardline\\.api\\.|org\\.slf4j\\.).*");

    private PluginUtils() {
    }

    /** True when {@code className} is loaded by the plugin's own loader first (false for JDK, API and SLF4J classes). */
    public static boolean shouldLoadInIsolation(String className) {
        return !PARENT_FIRST.matcher(className).matches();
    }

    /** The same rule for a resource name ({@code io/shardline/api/x.txt} is the parent's). */
    static boolean shouldLoadResourceInIsolation(String resourceName) {
        String asName = resourceName.startsWith("/") ? resourceName.substring(1) : resourceName;
        return shouldLoadInIsolation(asName.replace('/', '.'));
    }

    /**
     * The plugin locations below one {@code plugin.path} entry, sorted by path.
     *
     * @throws IOException when the entry cannot be listed
     */
    public static List<Path> pluginLocations(Path pathEntry) throws IOException {
        if (!Files.isDirectory(pathEntry)) {
            return isJar(pathEntry) ? List.of(pathEntry) : List.of();
        }
        try (Stream<Path> children = Files.list(pathEntry)) {
            return children.filter(p -> Files.isDirectory(p) || isJar(p)).sorted().toList();
        }
    }

    /**
     * The class path of one plugin location: the jar itself, or the folder plus every jar below it.
     *
     * @throws IOException when a folder cannot be walked
     * @throws InvalidPluginException when a jar cannot be opened (corrupt or not a zip)
     */
    public static URL[] pluginUrls(Path location) throws IOException {
        List<URL> urls = new ArrayList<>();
        if (Files.isDirectory(location)) {
            urls.add(toUrl(location));
            try (Stream<Path> files = Files.walk(location, java.nio.file.FileVisitOption.FOLLOW_LINKS)) {
                for (Path jar : files.filter(PluginUtils::isJar).sorted().toList()) {
                    checkJar(jar);
                    urls.add(toUrl(jar));
                }
            }
        } else {
            checkJar(location);
            urls.add(toUrl(location));
        }
        return urls.toArray(URL[]::new);
    }

    private static boolean isJar(Path p) {
        String name = p.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        return Files.isRegularFile(p) && (name.endsWith(".jar") || name.endsWith(".zip"));
    }

    private static void checkJar(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            file.size();
        } catch (IOException e) {
            throw new InvalidPluginException(jar, "not a readable jar (" + e.getMessage() + ")");
        }
    }

    private static URL toUrl(Path p) {
        try {
            return p.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new UncheckedIOException(e);
        }
    }
}
