package io.shardline.runtime.plugin;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds fixture plugins at test time (as Kafka Connect's {@code TestPlugins}): the sources and
 * {@code META-INF/services} files under {@code src/test/resources/test-plugins/<name>/} are compiled with
 * the system Java compiler against the test class path and packed into {@code <dir>/<name>.jar}. No jars
 * are kept in git.
 */
public final class TestPlugins {

    private TestPlugins() {
    }

    /** Compiles and jars the fixture plugin {@code name} into {@code dir}; returns the jar. */
    public static Path jar(String name, Path dir) {
        try {
            Path source = sourceDir(name);
            Path classes = Files.createTempDirectory("test-plugin-" + name + "-classes");
            compile(name, source, classes);
            Path jar = dir.resolve(name + ".jar");
            writeJar(source, classes, jar);
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException("could not build test plugin " + name, e);
        }
    }

    private static Path sourceDir(String name) {
        URL url = TestPlugins.class.getResource("/test-plugins/" + name);
        if (url == null) {
            throw new IllegalArgumentException("no test plugin sources at src/test/resources/test-plugins/" + name);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void compile(String name, Path source, Path classes) throws IOException {
        List<String> sources;
        try (Stream<Path> files = Files.walk(source)) {
            sources = files.filter(p -> p.toString().endsWith(".java")).map(Path::toString).toList();
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no system Java compiler: run the tests on a JDK, not a JRE");
        }
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-classpath",
                System.getProperty("java.class.path"), "--release", "17", "-nowarn"));
        args.addAll(sources);
        int rc = javac.run(null, null, null, args.toArray(String[]::new));
        if (rc != 0) {
            throw new IllegalStateException("test plugin " + name + " did not compile (javac exit " + rc + ")");
        }
    }

    private static void writeJar(Path source, Path classes, Path jar) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, "1.2.3");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jos = new JarOutputStream(out, manifest)) {
            addTree(jos, classes, p -> true);
            addTree(jos, source, p -> !p.toString().endsWith(".java"));
        }
    }

    private static void addTree(JarOutputStream jos, Path root, java.util.function.Predicate<Path> include) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(Files::isRegularFile).filter(include).sorted().toList();
        }
        for (Path file : files) {
            jos.putNextEntry(new JarEntry(root.relativize(file).toString().replace('\\', '/')));
            Files.copy(file, jos);
            jos.closeEntry();
        }
    }
}
