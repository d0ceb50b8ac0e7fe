package io.shardline.runtime.worker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The worker's pid file, {@code <log.dir>/<worker.id>.pid}: written at start, deleted at exit, read by
 * {@code bin/stop-worker}. Stateless.
 */
public final class PidFile {

    private PidFile() {
    }

    /** Where the pid file of {@code config}'s worker lives. */
    public static Path of(WorkerConfig config) {
        return Path.of(config.logDir()).resolve(config.workerId() + ".pid");
    }

    /** Writes this process's pid. */
    public static void write(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, Long.toString(ProcessHandle.current().pid()) + "\n", StandardCharsets.UTF_8);
    }

    /** The pid recorded in {@code file}, if the file exists and holds a number. */
    public static Optional<Long> read(Path file) {
        try {
            return Optional.of(Long.parseLong(Files.readString(file, StandardCharsets.UTF_8).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Deletes the file if it still names this process. */
    public static void deleteIfOurs(Path file) {
        if (read(file).orElse(-1L) == ProcessHandle.current().pid()) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // the next start overwrites it
            }
        }
    }
}
