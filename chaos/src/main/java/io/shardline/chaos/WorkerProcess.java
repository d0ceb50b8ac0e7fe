package io.shardline.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One worker JVM started from the distribution with {@code bin/start-worker <props>}; controlled only by its
 * own pid (SIGKILL, SIGTERM, SIGSTOP, SIGCONT). {@code start-worker} {@code exec}s the JVM, so the child's
 * pid is the worker's. Output goes to {@code <id>.out}/{@code <id>.err} beside its properties file.
 * Thread-safe (all methods synchronized).
 */
public final class WorkerProcess {

    private final String id;
    private final Path distHome;
    private final Path properties;
    private final String javaOpts;
    private Process process;
    private long startedAtMs;
    private boolean paused;

    WorkerProcess(String id, Path distHome, Path properties, String javaOpts) {
        this.id = id;
        this.distHome = distHome;
        this.properties = properties;
        this.javaOpts = javaOpts;
    }

    /** The worker id (also the prefix of its member ids). */
    public String id() {
        return id;
    }

    /** Starts the JVM (does not wait for it to join; see {@link #awaitJoined(Duration)}). */
    public synchronized void start(long nowMs) {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("worker " + id + " is already running as pid " + process.pid());
        }
        Path dir = properties.getParent();
        ProcessBuilder pb = new ProcessBuilder(distHome.resolve("bin/start-worker").toString(), properties.toString())
                .directory(dir.toFile())
                .redirectOutput(dir.resolve(id + ".out").toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve(id + ".err").toFile()));
        pb.environment().put("JAVA_OPTS", javaOpts);
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start worker " + id + " from " + distHome, e);
        }
        startedAtMs = nowMs;
        paused = false;
    }

    /**
     * Waits until {@code start-worker} printed its joined line on stdout
     * ({@code Shardline worker <id> joined cluster ...}; log lines may come before it).
     *
     * @throws IllegalStateException when the worker exits first or does not join in time (with its stderr tail)
     */
    public void awaitJoined(Duration timeout) throws InterruptedException {
        Path out = properties.getParent().resolve(id + ".out");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Process p;
            synchronized (this) {
                p = process;
            }
            if (p == null || !p.isAlive()) {
                throw new IllegalStateException("worker " + id + " exited during start (code "
                        + (p == null ? "none" : p.exitValue()) + "): " + errTail());
            }
            if (joined(out)) {
                return;
            }
            p.waitFor(100, TimeUnit.MILLISECONDS); // poll interval: wakes at once if the worker exits
        }
        throw new IllegalStateException("worker " + id + " did not join within " + timeout + ": " + errTail());
    }

    /** {@code kill -9}. */
    public synchronized void kill() throws InterruptedException {
        if (process != null) {
            process.toHandle().destroyForcibly(); // SIGKILL also ends a process stopped by SIGSTOP
            paused = false;
            process.waitFor(10, TimeUnit.SECONDS);
            process = null;
        }
    }

    /** SIGTERM (graceful stop: drain, report revoked, leave); SIGKILL if it has not exited in time. */
    public synchronized boolean stopGracefully(Duration timeout) throws InterruptedException {
        if (process == null) {
            return true;
        }
        if (paused) {
            resume();
        }
        process.toHandle().destroy();
        boolean clean = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) && process.exitValue() == 0;
        if (process.isAlive()) {
            process.toHandle().destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        process = null;
        return clean;
    }

    /** SIGSTOP. */
    public synchronized void pause() throws InterruptedException {
        signal("STOP");
        paused = true;
    }

    /** SIGCONT. */
    public synchronized void resume() throws InterruptedException {
        signal("CONT");
        paused = false;
    }

    /** True while the JVM runs (also when stopped by SIGSTOP). */
    public synchronized boolean alive() {
        return process != null && process.isAlive();
    }

    /** When it was last started (epoch millis). */
    public synchronized long startedAtMs() {
        return startedAtMs;
    }

    private void signal(String name) throws InterruptedException {
        if (process == null) {
            return;
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed for worker " + id);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run kill -" + name, e);
        }
    }

    private boolean joined(Path out) {
        try {
            return Files.exists(out)
                    && Files.readString(out, StandardCharsets.UTF_8).contains("Shardline worker " + id + " joined cluster");
        } catch (IOException e) {
            return false;
        }
    }

    private String errTail() {
        try {
            List<String> lines = Files.readAllLines(properties.getParent().resolve(id + ".err"));
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(no stderr)";
        }
    }
}
