package io.shardline.it;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds a plugin jar at test time from the fixture sources of the runtime's tests
 * ({@code runtime/src/test/resources/test-plugins/<name>/}: Java sources and {@code META-INF/services} files),
 * compiled against the plugin API on this test's class path. No jars in git.
 */
final class PluginJars {

    private PluginJars() {
    }

    /** Compiles fixture {@code name} and writes {@code <dir>/<name>.jar}; returns the jar. */
    static Path build(String name, Path dir) throws IOException {
        Path source = Path.of("..", "runtime", "src", "test", "resources", "test-plugins", name).toAbsolutePath();
        if (!Files.isDirectory(source)) {
            throw new IllegalStateException("no plugin fixture at " + source);
        }
        Path classes = Files.createTempDirectory("it-plugin-" + name);
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-classpath",
                System.getProperty("java.class.path"), "--release", "17", "-nowarn"));
        try (Stream<Path> files = Files.walk(source)) {
            files.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null || javac.run(null, null, null, args.toArray(String[]::new)) != 0) {
            throw new IllegalStateException("plugin fixture " + name + " did not compile (run the tests on a JDK)");
        }
        Files.createDirectories(dir);
        Path jar = dir.resolve(name + ".jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jos = new JarOutputStream(out)) {
            add(jos, classes, p -> p.toString().endsWith(".class"));
            add(jos, source, p -> source.relativize(p).startsWith("META-INF"));
        }
        return jar;
    }

    private static void add(JarOutputStream jos, Path root, java.util.function.Predicate<Path> which) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(Files::isRegularFile).filter(which).sorted().toList();
        }
        for (Path f : files) {
            jos.putNextEntry(new JarEntry(root.relativize(f).toString().replace('\\', '/')));
            Files.copy(f, jos);
            jos.closeEntry();
        }
    }
}
