package io.shardline.chaos;

import io.shardline.chaos.verifying.VerifyingHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Puts the verifying handler where the workers' {@code plugin.path} looks: {@code <dir>/verifying-handler/}.
 * The plugin comes from this JVM's class path: its jar is copied; when it is a classes directory (an IDE or
 * a reactor build before {@code package}), a jar is made from it.
 */
final class PluginJar {

    private PluginJar() {
    }

    /** Installs the plugin under {@code pluginPath} and returns {@code pluginPath}. */
    static Path install(Path pluginPath) throws IOException {
        Path source;
        try {
            source = Path.of(VerifyingHandler.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException("cannot locate the verifying handler on the class path", e);
        }
        Path target = Files.createDirectories(pluginPath.resolve("verifying-handler"))
                .resolve("shardline-chaos-verifying-handler.jar");
        if (Files.isRegularFile(source)) {
            Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        } else {
            jar(source, target);
        }
        return pluginPath;
    }

    private static void jar(Path classes, Path target) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(classes)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        try (OutputStream out = Files.newOutputStream(target); JarOutputStream jar = new JarOutputStream(out)) {
            for (Path f : files) {
                jar.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, jar);
                jar.closeEntry();
            }
        }
    }
}
