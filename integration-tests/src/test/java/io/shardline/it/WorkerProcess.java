package io.shardline.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One worker JVM started from the built distribution ({@code bin/start-worker}), its console output in
 * a file. Stopped only by its own pid: {@link #kill()} (SIGKILL), {@link #terminate()} (SIGTERM).
 */
final class WorkerProcess implements AutoCloseable {

    private static final Pattern TIME = Pattern.compile("^(\\d{2}:\\d{2}:\\d{2}\\.\\d{3}) ");

    final String workerId;
    final Path config;
    final Path output;
    final Process process;
    final long startedNanos;

    private WorkerProcess(String workerId, Path config, Path output, Process process, long startedNanos) {
        this.workerId = workerId;
        this.config = config;
        this.output = output;
        this.process = process;
        this.startedNanos = startedNanos;
    }

    /** Writes the worker's properties and starts it. */
    static WorkerProcess start(Path distDir, Path workDir, String workerId, Map<String, String> settings) throws IOException {
        return start(distDir, workDir, workerId, workerId, settings);
    }

    /**
     * Starts worker {@code workerId} with its properties and console output in files named {@code fileId}
     * (a worker started again under the same id keeps the first run's output).
     */
    static WorkerProcess start(Path distDir, Path workDir, String fileId, String workerId, Map<String, String> settings)
            throws IOException {
        return start(distDir, workDir, fileId, workerId, settings, Map.of());
    }

    /** {@link #start(Path, Path, String, String, Map)} with {@code env} added to the worker's environment. */
    static WorkerProcess start(Path distDir, Path workDir, String fileId, String workerId, Map<String, String> settings,
                               Map<String, String> env) throws IOException {
        Path config = workDir.resolve(fileId + ".properties");
        StringBuilder text = new StringBuilder();
        settings.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        text.append("worker.id=").append(workerId).append('\n');
        Files.writeString(config, text.toString(), StandardCharsets.UTF_8);
        Path output = workDir.resolve(fileId + ".out");
        ProcessBuilder pb = new ProcessBuilder(distDir.resolve("bin/start-worker").toString(), config.toString())
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        pb.environment().put("JAVA_OPTS", "-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
        pb.environment().putAll(env);
        long started = System.nanoTime();
        return new WorkerProcess(workerId, config, output, pb.start(), started);
    }

    /** The console output so far. */
    List<String> lines() {
        try {
            return Files.readAllLines(output, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first output line containing {@code text}, if any. */
    Optional<String> find(String text) {
        return lines().stream().filter(l -> l.contains(text)).findFirst();
    }

    /** Waits for a line containing {@code text}; fails with the output tail when the worker died or time ran out. */
    String await(String text, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<String> line = find(text);
            if (line.isPresent()) {
                return line.get();
            }
            if (!process.isAlive()) {
                throw new AssertionError(workerId + " exited (" + process.exitValue() + ") before printing '" + text
                        + "':\n" + tail());
            }
            pause(50);
        }
        throw new AssertionError(workerId + " did not print '" + text + "' within " + timeout + ":\n" + tail());
    }

    /** The log timestamp (HH:mm:ss.SSS, this machine's clock) of the first line containing {@code text}. */
    Optional<LocalTime> timeOf(String text) {
        return find(text).flatMap(l -> {
            Matcher m = TIME.matcher(l);
            return m.find() ? Optional.of(LocalTime.parse(m.group(1))) : Optional.empty();
        });
    }

    /** SIGKILL, as a crash. */
    void kill() {
        process.destroyForcibly();
        waitExit(Duration.ofSeconds(10));
    }

    /** SIGSTOP: the process hangs with its sockets open, as in a long GC pause or a partition. */
    void pause() {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    void resume() {
        signal("CONT");
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new AssertionError("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** SIGTERM: graceful stop. */
    void terminate() {
        process.destroy();
    }

    /** Waits for the exit and returns the exit code. */
    int waitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(workerId + " still running after " + timeout, new TimeoutException());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    String tail() {
        List<String> all = lines();
        return String.join("\n", all.subList(Math.max(0, all.size() - 40), all.size()));
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    static void pause(long ms) {
        try {
            TimeUnit.MILLISECONDS.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
