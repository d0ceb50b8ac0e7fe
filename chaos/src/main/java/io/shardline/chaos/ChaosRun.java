package io.shardline.chaos;

import io.shardline.testkit.redis.RedisServer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * One chaos run end to end: a redis-server with AOF ({@code appendfsync always}), the workers, the producer,
 * the seeded faults until the duration is over, then drain, graceful stop, Redis snapshot and the checker.
 * Everything it starts it stops by pid, also from a JVM shutdown hook (Ctrl-C). Loopback only.
 */
public final class ChaosRun {

    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(300);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(300);
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(120);

    private final ChaosSettings settings;
    private final PrintStream out;
    private final LongSupplier clock;
    private String aborted;

    /** A run with the wall clock (the verifying handlers in the workers use the same clock). */
    public ChaosRun(ChaosSettings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
        this.clock = System::currentTimeMillis;
    }

    /** Runs, checks, writes {@code report.txt} into the work directory and returns the report. */
    public CheckReport run() throws IOException, InterruptedException {
        Path dir = Files.createDirectories(settings.workDir());
        out.printf("chaos: seed %d, %d workers, %d shards, %d records/s over %s keys, %d s of faults %s and %d "
                        + "reshardings; work dir %s%n", settings.seed(), settings.workers(), settings.shards(),
                settings.ratePerSecond(), settings.keys() == 0 ? "distinct" : Integer.toString(settings.keys()),
                settings.durationMs() / 1000, settings.faults(), settings.reshards(), dir);
        RedisServer redis = RedisServer.start(true);
        WorkerFleet fleet = WorkerFleet.configure(settings, redis.uri(), PluginJar.install(dir.resolve("plugins")));
        Thread reaper = new Thread(() -> {
            fleet.killAll();
            redis.kill();
        }, "chaos-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        List<FaultEvent> faults = new ArrayList<>();
        ChaosProducer producer = new ChaosProducer(redis.host(), redis.port(), ChaosSettings.STREAM, settings.shards(),
                settings.keys(), clock);
        ReshardFaults reshards = new ReshardFaults(settings, fleet, redis, clock);
        long deadLettered;
        Map<Integer, ShardState> shards;
        int shardsAtEnd;
        try {
            fleet.startAll(JOIN_TIMEOUT);
            out.println("chaos: " + settings.workers() + " workers joined cluster " + fleet.clusterName());
            producer.start(settings.ratePerSecond());
            if (!await(START_TIMEOUT, () -> RedisSnapshot.started(redis.host(), redis.port(),
                    ChaosSettings.STREAM, ChaosSettings.LISTENER, settings.shards()))) {
                throw new IllegalStateException("the listener did not read every shard within " + START_TIMEOUT
                        + " (see the worker logs under " + dir.resolve("workers") + ")");
            }
            try {
                injectFaults(new FaultInjector(settings, fleet, redis, clock), reshards, faults);
                reshards.awaitStable().ifPresent(e -> record(faults, e)); // the last change completes under load
            } catch (IllegalStateException e) {
                aborted = e.getMessage(); // e.g. a restarted worker did not join: check what happened until then
                out.println("chaos: fault injection stopped early: " + aborted);
            }
            producer.close();
            out.println("chaos: producer stopped after " + producer.produced().size() + " records; draining");
            if (!await(DRAIN_TIMEOUT, () -> RedisSnapshot.drained(redis.host(), redis.port(),
                    ChaosSettings.STREAM, ChaosSettings.LISTENER, reshards.maxShards()))) {
                out.println("chaos: warning: the group did not drain within " + DRAIN_TIMEOUT + "; checking anyway");
            }
            List<String> unclean = fleet.stopAll();
            if (!unclean.isEmpty()) {
                out.println("chaos: warning: workers that did not stop cleanly at the end: " + unclean);
            }
            shards = RedisSnapshot.shards(redis.host(), redis.port(), ChaosSettings.STREAM, ChaosSettings.LISTENER,
                    reshards.maxShards());
            shardsAtEnd = RedisSnapshot.topologyShards(redis.host(), redis.port(), ChaosSettings.STREAM);
            deadLettered = RedisSnapshot.deadLettered(redis.host(), redis.port(), ChaosSettings.DEAD_LETTERS);
        } finally {
            producer.close();
            fleet.killAll();
            redis.stop();
            keepRedisData(redis, dir.resolve("redis"));
            redis.close();
            Runtime.getRuntime().removeShutdownHook(reaper);
        }
        faults.sort(Comparator.comparingLong(FaultEvent::startMs)); // a change is recorded when it completed
        HistoryFiles.write(dir, new History(ChaosSettings.STREAM, producer.produced(), producer.indeterminate(),
                List.of(), faults, shards, deadLettered, settings.inFlightPerWorker(), settings.sessionTimeoutMs(),
                settings.keys(), shardsAtEnd));
        return checkAndReport(dir, out);
    }

    /**
     * Copies the stopped server's data (its append-only files: the group log, the audit stream, every fenced call;
     * and {@code redis.log}) into the run directory, so that it stays with the run's other evidence.
     */
    private void keepRedisData(RedisServer redis, Path to) {
        try {
            DirectoryCopy.copy(redis.dir(), to);
        } catch (IOException e) {
            out.println("chaos: warning: could not keep Redis's data of this run: " + e.getMessage());
        }
    }

    /** Why fault injection stopped before the duration was over, if it did (the run was still checked). */
    public Optional<String> aborted() {
        return Optional.ofNullable(aborted);
    }

    /**
     * Checks a run directory (a fresh run or an old one) and writes {@code report.txt} beside it: the checker's
     * verdict, then what the worker logs say about leases ({@link WorkerLogs}; informative, not judged).
     */
    public static CheckReport checkAndReport(Path dir, PrintStream out) throws IOException {
        History history = HistoryFiles.read(dir);
        CheckReport report = Checker.check(history);
        String leases = String.join("\n", WorkerLogs.render(WorkerLogs.read(dir, ZoneId.systemDefault()),
                history.faults(), history.sessionTimeoutMs())) + "\n";
        Files.writeString(dir.resolve("report.txt"), report.render() + leases);
        out.println("chaos: report for " + dir);
        out.print(report.render());
        out.print(leases);
        return report;
    }

    private void injectFaults(FaultInjector injector, ReshardFaults reshards, List<FaultEvent> faults)
            throws InterruptedException, IOException {
        long runStart = clock.getAsLong();
        long deadline = runStart + settings.durationMs();
        List<FaultSchedule.Planned> plan = FaultSchedule.plan(settings.seed(), settings.faults(), 100_000,
                2L * settings.sessionTimeoutMs(), settings.sessionTimeoutMs());
        int kills = 0;
        int pauses = 0;
        for (FaultSchedule.Planned planned : plan) {
            if (clock.getAsLong() >= deadline) {
                break;
            }
            boolean kill = planned.kind() == FaultKind.KILL_WORKER || planned.kind() == FaultKind.KILL_LEADER;
            boolean pause = planned.kind() == FaultKind.PAUSE_WORKER || planned.kind() == FaultKind.PAUSE_LEADER;
            if (settings.hasTargets()) {
                boolean killsMet = kills >= settings.killTarget();
                boolean pausesMet = pauses >= settings.pauseTarget();
                if (killsMet && pausesMet) {
                    out.printf("chaos: fault targets reached: %d kills, %d pauses%n", kills, pauses);
                    break;
                }
                if (kill && killsMet || pause && pausesMet) {
                    continue;
                }
            }
            maybeReshard(reshards, runStart, faults); // a change starts; the planned fault hits while it runs
            Optional<FaultEvent> event = injector.inject(planned);
            if (event.isPresent()) {
                kills += kill ? 1 : 0;
                pauses += pause ? 1 : 0;
            }
            event.ifPresent(e -> record(faults, e));
            Thread.sleep(Math.max(0, Math.min(planned.settleMs(), deadline - clock.getAsLong())));
        }
        // No drawn faults (or their targets met, or the duration over): every change still scheduled, then the rest
        // of a run without targets.
        while (reshards.started() < settings.reshards()) {
            Thread.sleep(Math.max(0, reshardDue(reshards, runStart) - clock.getAsLong()));
            maybeReshard(reshards, runStart, faults);
        }
        if (plan.isEmpty() || !settings.hasTargets()) {
            Thread.sleep(Math.max(0, deadline - clock.getAsLong()));
        }
    }

    /** Starts the next change of the shard count when it is due (the previous one completed first). */
    private void maybeReshard(ReshardFaults reshards, long runStart, List<FaultEvent> faults)
            throws InterruptedException, IOException {
        if (reshards.started() >= settings.reshards() || clock.getAsLong() < reshardDue(reshards, runStart)) {
            return;
        }
        reshards.awaitStable().ifPresent(e -> record(faults, e));
        reshards.start();
        out.printf("chaos: resharding %d of %d started%n", reshards.started(), settings.reshards());
    }

    /**
     * When the next change is due: the {@code --reshards} changes are spread evenly over the duration, the first one
     * at its start (right before the first drawn fault, which hits it).
     */
    private long reshardDue(ReshardFaults reshards, long runStart) {
        return runStart + settings.durationMs() * reshards.started() / settings.reshards();
    }

    private void record(List<FaultEvent> faults, FaultEvent e) {
        faults.add(e);
        out.printf("chaos: fault %d: %s on %s, %d ms%n", faults.size(), e.kind(), e.target(), e.endMs() - e.startMs());
    }

    /** A condition that may fail to evaluate (e.g. Redis is restarting): then it counts as false. */
    interface Condition {
        boolean holds() throws IOException;
    }

    /** Polls the condition until it holds (true) or the timeout passed (false). */
    static boolean await(Duration timeout, Condition condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (condition.holds()) {
                    return true;
                }
            } catch (IOException e) {
                // not yet: try again until the deadline
            }
            TimeUnit.MILLISECONDS.sleep(200); // poll interval of the condition
        }
        return false;
    }
}
