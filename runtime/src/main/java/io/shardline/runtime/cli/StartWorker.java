package io.shardline.runtime.cli;

import io.shardline.api.config.ConfigException;
import io.shardline.api.config.Placeholders;
import io.shardline.runtime.config.Version;
import io.shardline.runtime.worker.PidFile;
import io.shardline.runtime.worker.Worker;
import io.shardline.runtime.config.WorkerConfig;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import sun.misc.Signal;

/**
 * Entry point behind {@code bin/start-worker}: runs one worker in the foreground.
 *
 * <p>Exit codes: 0 after a graceful stop; 1 when the stop was forced (second SIGTERM or
 * {@code rebalance.timeout.ms} passed); 2 for invalid configuration (every error is listed: key, value,
 * file, line, reason; nothing was joined); 3 when the worker could not start (cluster, Redis).
 */
@Command(name = "start-worker",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Starts a Shardline worker in the foreground with the given worker.properties.")
public final class StartWorker implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "WORKER_PROPERTIES", description = "Path to the worker configuration file.")
    private String workerProperties;

    @Override
    public Integer call() {
        long jvmStartAgo = ManagementFactory.getRuntimeMXBean().getUptime();
        WorkerConfig config;
        try {
            config = WorkerConfig.load(Path.of(workerProperties), Placeholders.system());
        } catch (ConfigException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        // Before the first logger is created: logs/<worker.id>.log.
        System.setProperty("shardline.log.dir", config.logDir());
        System.setProperty("shardline.log.name", config.workerId());
        Logger log = LoggerFactory.getLogger(StartWorker.class);
        log.info("Starting Shardline {} worker {} with {}: {}", Version.current(), config.workerId(), workerProperties,
                config.values().describe());
        Path home = Path.of(System.getProperty("shardline.home", "."));
        Path pidFile = PidFile.of(config);
        Worker worker;
        try {
            PidFile.claim(pidFile);
        } catch (PidFile.AlreadyRunningException e) {
            log.error("Worker {} runs already (pid {}, pid file {}); not starting a second one", config.workerId(),
                    e.pid(), pidFile);
            System.err.println("start-worker: worker " + config.workerId() + " runs already (pid " + e.pid()
                    + ", pid file " + pidFile + "); stop it first with bin/stop-worker " + workerProperties);
            return 3;
        } catch (java.io.IOException e) {
            System.err.println("start-worker: cannot write the pid file " + pidFile + ": " + e.getMessage());
            return 3;
        }
        try {
            worker = Worker.start(config, home, Placeholders.system());
        } catch (ConfigException e) {
            System.err.println(e.getMessage());
            PidFile.deleteIfOurs(pidFile);
            return 2;
        } catch (RuntimeException e) {
            // Cluster, Redis (RedisDisconnectedException names the address), ports, Vert.x: one line, exit 3.
            log.error("Worker {} could not start: {}", config.workerId(), e.getMessage());
            System.err.println("start-worker: " + e.getMessage());
            PidFile.deleteIfOurs(pidFile);
            return 3;
        }
        System.out.println(worker.joinedLine(ManagementFactory.getRuntimeMXBean().getUptime()));
        System.out.flush();
        log.info("Worker joined; config parsed {} ms after JVM start", jvmStartAgo);
        return runUntilStopped(worker, config, pidFile, log);
    }

    private static int runUntilStopped(Worker worker, WorkerConfig config, Path pidFile, Logger log) {
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicInteger signals = new AtomicInteger();
        AtomicInteger exitCode = new AtomicInteger(0);
        sun.misc.SignalHandler onSignal = signal -> {
            if (signals.incrementAndGet() > 1) {
                log.warn("Second SIG{}: forcing exit", signal.getName());
                PidFile.deleteIfOurs(pidFile);
                Runtime.getRuntime().halt(1);
            }
            log.info("SIG{}: stopping gracefully within {} ms (send it again to force)", signal.getName(),
                    config.rebalanceTimeoutMs());
            Thread stopper = new Thread(() -> {
                boolean clean = worker.stop(config.rebalanceTimeoutMs());
                exitCode.set(clean ? 0 : 1);
                stopped.countDown();
            }, "shardline-stop");
            stopper.start();
            Thread watchdog = new Thread(() -> {
                try {
                    if (!stopped.await(config.rebalanceTimeoutMs() + 2_000L, TimeUnit.MILLISECONDS)) {
                        log.error("Graceful stop did not finish within rebalance.timeout.ms; forcing exit");
                        PidFile.deleteIfOurs(pidFile);
                        Runtime.getRuntime().halt(1);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "shardline-stop-watchdog");
            watchdog.setDaemon(true);
            watchdog.start();
        };
        Signal.handle(new Signal("TERM"), onSignal);
        Signal.handle(new Signal("INT"), onSignal);
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        PidFile.deleteIfOurs(pidFile);
        return exitCode.get();
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new StartWorker()).execute(args));
    }
}
