package io.shardline.runtime.worker;

import io.shardline.runtime.config.WorkerConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;

/**
 * The worker's pid file, {@code <log.dir>/<worker.id>.pid}: claimed at start, deleted at exit, read by
 * {@code bin/stop-worker}. A pid names a worker only while that process's command line runs
 * {@value #MAIN_CLASS} with this worker's file (compared as real paths, a relative argument against the
 * process's working directory): a stale file whose pid now belongs to another process is never
 * signalled, and a start never overwrites the file of a worker that runs. Stateless.
 */
public final class PidFile {

    /** The main class on a worker's command line. */
    public static final String MAIN_CLASS = "io.shardline.runtime.cli.StartWorker";

    private PidFile() {
    }

    /** Where the pid file of {@code config}'s worker lives. */
    public static Path of(WorkerConfig config) {
        return Path.of(config.logDir()).resolve(config.workerId() + ".pid");
    }

    /**
     * Writes this process's pid into {@code file}, unless the file names another running worker (of any file:
     * two worker files with the same {@code worker.id} and {@code log.dir} share the pid file).
     *
     * @throws AlreadyRunningException when it does (the file is left as it is)
     * @throws IOException when the file cannot be written
     */
    public static void claim(Path file) throws IOException {
        Optional<ProcessHandle> running = read(file).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive)
                .filter(p -> arguments(p).contains(MAIN_CLASS));
        if (running.isPresent() && running.get().pid() != ProcessHandle.current().pid()) {
            throw new AlreadyRunningException(running.get().pid());
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.deleteIfExists(file); // stale: its process is gone or is not this worker
        try {
            Files.writeString(file, ProcessHandle.current().pid() + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException raced) {
            throw new AlreadyRunningException(read(file).orElse(-1L));
        }
    }

    /** The running worker of {@code workerFile} that {@code file} names, if any (see the class comment). */
    public static Optional<ProcessHandle> runningWorker(Path file, Path workerFile) {
        return read(file).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive)
                .filter(p -> isWorker(p, workerFile));
    }

    /** Whether {@code process} runs {@value #MAIN_CLASS} with {@code workerFile}. */
    public static boolean isWorker(ProcessHandle process, Path workerFile) {
        List<String> args = arguments(process);
        int main = args.indexOf(MAIN_CLASS);
        if (main < 0) {
            return false;
        }
        Optional<Path> wanted = realPath(workerFile);
        Path cwd = Path.of("/proc", Long.toString(process.pid()), "cwd");
        for (String arg : args.subList(main + 1, args.size())) {
            if (arg.startsWith("-")) {
                continue;
            }
            Path given = Path.of(arg);
            Optional<Path> real = realPath(given.isAbsolute() || !Files.isDirectory(cwd) ? given : cwd.resolve(given));
            if (real.isPresent() && real.equals(wanted)) {
                return true;
            }
        }
        return false;
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

    private static List<String> arguments(ProcessHandle process) {
        return process.info().arguments().map(List::of).orElse(List.of());
    }

    private static Optional<Path> realPath(Path path) {
        try {
            return Optional.of(path.toRealPath());
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    /** A worker of the same file runs already (its pid file is left untouched). */
    public static final class AlreadyRunningException extends IOException {

        private final long pid;

        AlreadyRunningException(long pid) {
            super("a worker with this file runs already (pid " + pid + ")");
            this.pid = pid;
        }

        /** The running worker's pid. */
        public long pid() {
            return pid;
        }
    }
}
