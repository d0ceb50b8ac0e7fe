package io.shardline.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/** Copies a directory tree: what a run leaves to look at later (Redis's data into the run, a failed test's run). */
final class DirectoryCopy {

    private DirectoryCopy() {
    }

    /** Copies every file under {@code from} to the same place under {@code to}, replacing files already there. */
    static void copy(Path from, Path to) throws IOException {
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(from)) {
            paths = walk.toList();
        }
        for (Path source : paths) {
            Path target = to.resolve(from.relativize(source).toString());
            if (Files.isDirectory(source)) {
                Files.createDirectories(target);
            } else {
                Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
