package io.shardline.runtime.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.runtime.worker.PidFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code bin/stop-worker} signals only the worker of its file, needs none of the file's secrets, and a second
 * start never takes over a running worker's pid file. Worker processes are stood in for by {@code sh} processes
 * whose command line names the worker main class and file, as a real worker's does.
 */
class StopWorkerTest {

    @TempDir
    Path dir;
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopProcesses() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void signalsOnlyAProcessThatIsThisWorker() throws Exception {
        Path file = workerFile("w1", "redis.password=${env:SHARDLINE_TEST_UNSET_SECRET}");
        Path pidFile = dir.resolve("logs/w1.pid");
        Files.createDirectories(pidFile.getParent());

        Process unrelated = start("sleep", "60");
        Files.writeString(pidFile, unrelated.pid() + "\n");
        assertEquals(1, stop(file));
        assertThat(unrelated.isAlive()).isTrue();

        Process otherWorker = fakeWorker(workerFile("w2", ""));
        Files.writeString(pidFile, otherWorker.pid() + "\n");
        assertEquals(1, stop(file));
        assertThat(otherWorker.isAlive()).isTrue();

        Process worker = fakeWorker(file);
        Files.writeString(pidFile, worker.pid() + "\n");
        assertThat(PidFile.isWorker(worker.toHandle(), file)).isTrue();
        assertEquals(0, stop(file), "the unset secret variable of the file does not matter");
        assertThat(worker.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aSecondStartLeavesTheRunningWorkersPidFileAlone() throws Exception {
        Path file = workerFile("w1", "");
        Path pidFile = dir.resolve("logs/w1.pid");
        Files.createDirectories(pidFile.getParent());
        Process worker = fakeWorker(file);
        Files.writeString(pidFile, worker.pid() + "\n");
        assertThatThrownBy(() -> PidFile.claim(pidFile)).isInstanceOf(PidFile.AlreadyRunningException.class)
                .hasMessageContaining("pid " + worker.pid());
        assertEquals(worker.pid() + "\n", Files.readString(pidFile));
        PidFile.deleteIfOurs(pidFile);
        assertThat(pidFile).exists();

        worker.destroyForcibly().waitFor();
        PidFile.claim(pidFile);
        assertEquals(ProcessHandle.current().pid() + "\n", Files.readString(pidFile), "a stale pid file is taken over");
        PidFile.deleteIfOurs(pidFile);
        assertThat(pidFile).doesNotExist();
    }

    private int stop(Path file) {
        return new CommandLine(new StopWorker()).execute(file.toString());
    }

    private Path workerFile(String id, String extra) throws IOException {
        return Files.writeString(dir.resolve(id + ".properties"), "worker.id=w1\nlog.dir=" + dir.resolve("logs")
                + "\nrebalance.timeout.ms=1000\n" + extra + "\n");
    }

    /** A process whose command line runs the worker main class with {@code file}, as bin/start-worker's does. */
    private Process fakeWorker(Path file) throws IOException {
        return start("sh", "-c", "sleep 60; true", PidFile.MAIN_CLASS, file.toString());
    }

    private Process start(String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        started.add(p);
        return p;
    }
}
