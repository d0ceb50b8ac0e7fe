package io.shardline.runtime.cli;

import io.shardline.api.config.ConfigException;
import io.shardline.api.config.Placeholders;
import io.shardline.api.config.RawConfig;
import io.shardline.runtime.config.Version;
import io.shardline.runtime.worker.PidFile;
import io.shardline.runtime.config.WorkerConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Entry point behind {@code bin/stop-worker}: sends SIGTERM to the worker started with the same
 * worker.properties (found by its pid file, {@code <log.dir>/<worker.id>.pid}) and waits for it to exit.
 * It signals a pid only when that process is this worker ({@link PidFile#isWorker}: its command line runs
 * {@code start-worker} with this file), and reads only the keys it needs ({@value #KEYS_TEXT}), so a secret's
 * placeholder elsewhere in the file (a variable set only in the worker's environment) does not stop it.
 * Exit codes: 0 stopped; 1 still running after the wait, or no such worker; 2 invalid configuration.
 */
@Command(name = "stop-worker",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Stops the worker started with the given worker.properties (graceful, SIGTERM).")
public final class StopWorker implements Callable<Integer> {

    private static final String KEYS_TEXT = "worker.id, cluster.port, log.dir, rebalance.timeout.ms";
    private static final Set<String> KEYS = Set.of(WorkerConfig.WORKER_ID_CONFIG, WorkerConfig.CLUSTER_PORT_CONFIG,
            WorkerConfig.LOG_DIR_CONFIG, WorkerConfig.REBALANCE_TIMEOUT_CONFIG);

    @Parameters(index = "0", paramLabel = "WORKER_PROPERTIES", description = "The worker's configuration file.")
    private String workerProperties;

    @Option(names = "--force", description = "Send SIGKILL instead of SIGTERM (no graceful stop).")
    private boolean force;

    @Override
    public Integer call() throws InterruptedException {
        WorkerConfig config;
        try {
            config = stopSettings(Path.of(workerProperties));
        } catch (ConfigException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        Path pidFile = PidFile.of(config);
        Optional<ProcessHandle> named = PidFile.read(pidFile).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive);
        if (named.isEmpty()) {
            System.err.println("stop-worker: no running worker " + config.workerId() + " (pid file " + pidFile + ")");
            return 1;
        }
        if (!PidFile.isWorker(named.get(), Path.of(workerProperties))) {
            System.err.println("stop-worker: pid " + named.get().pid() + " of " + pidFile + " is not worker "
                    + config.workerId() + " started with " + workerProperties + " (its command line does not run "
                    + PidFile.MAIN_CLASS + " with this file); nothing was signalled. A stale pid file: delete it");
            return 1;
        }
        ProcessHandle worker = named.get();
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

    /** The keys of {@code file} that locate the worker and bound the wait; no other value is read or resolved. */
    static WorkerConfig stopSettings(Path file) {
        RawConfig raw = RawConfig.load(file);
        if (!raw.errors().isEmpty()) {
            throw new ConfigException(raw.errors());
        }
        Map<String, String> needed = new TreeMap<>();
        raw.values().forEach((key, value) -> {
            if (KEYS.contains(key)) {
                needed.put(key, value.text());
            }
        });
        return WorkerConfig.of(RawConfig.parse(toProperties(needed), file.toString(), file.toAbsolutePath().getParent()),
                Placeholders.system());
    }

    private static String toProperties(Map<String, String> values) {
        StringBuilder out = new StringBuilder();
        values.forEach((k, v) -> out.append(k).append('=').append(v.replace("\\", "\\\\").replace("\n", "\\n"))
                .append('\n'));
        return out.toString();
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new StopWorker()).execute(args));
    }
}
