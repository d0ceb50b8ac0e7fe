package io.shardline.runtime.cli;

import io.shardline.api.config.ConfigException;
import io.shardline.api.config.Placeholders;
import io.shardline.runtime.worker.PidFile;
import io.shardline.runtime.worker.WorkerConfig;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Entry point behind {@code bin/stop-worker}: sends SIGTERM to the worker started with the same
 * worker.properties (found by its pid file, {@code <log.dir>/<worker.id>.pid}) and waits for it to exit.
 * Exit codes: 0 stopped; 1 still running after the wait, or no such worker; 2 invalid configuration.
 */
@Command(name = "stop-worker",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Stops the worker started with the given worker.properties (graceful, SIGTERM).")
public final class StopWorker implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "WORKER_PROPERTIES", description = "The worker's configuration file.")
    private String workerProperties;

    @Option(names = "--force", description = "Send SIGKILL instead of SIGTERM (no graceful stop).")
    private boolean force;

    @Override
    public Integer call() throws InterruptedException {
        WorkerConfig config;
        try {
            config = WorkerConfig.load(Path.of(workerProperties), Placeholders.system());
        } catch (ConfigException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        Path pidFile = PidFile.of(config);
        Optional<ProcessHandle> process = PidFile.read(pidFile).flatMap(ProcessHandle::of);
        if (process.isEmpty() || !process.get().isAlive()) {
            System.err.println("stop-worker: no running worker " + config.workerId() + " (pid file " + pidFile + ")");
            return 1;
        }
        ProcessHandle worker = process.get();
        boolean sent = force ? worker.destroyForcibly() : worker.destroy();
        if (!sent) {
            System.err.println("stop-worker: could not signal pid " + worker.pid());
            return 1;
        }
        long waitMs = config.rebalanceTimeoutMs() + 5_000L;
        try {
            worker.onExit().get(waitMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            System.err.println("stop-worker: worker " + config.workerId() + " (pid " + worker.pid()
                    + ") still running after " + waitMs + " ms; use --force");
            return 1;
        }
        System.out.println("Stopped worker " + config.workerId() + " (pid " + worker.pid() + ")");
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new StopWorker()).execute(args));
    }
}
