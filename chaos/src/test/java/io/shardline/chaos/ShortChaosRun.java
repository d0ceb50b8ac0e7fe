package io.shardline.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.testkit.dist.DistributionArchive;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the short chaos runs of the build share: real worker processes from the packaged distribution, a real
 * redis-server with AOF, faults from a fixed seed; each run fails on any violation the checker finds. Needs
 * {@code dist/target/shardline-*} (the chaos module builds after {@code dist}). A failed run (an invalid check, an
 * aborted fault injection, an exception) is kept in {@code target/chaos-failures/<test>-<seed>/}
 * ({@link FailedRunEvidence}), which the assertion messages name. The runs are split over two classes,
 * {@link ChaosRunTest} and {@link ChaosReshardRunTest}, so that two forks can run them side by side
 * ({@code -Dchaos.forkCount=2}; docs/testing.md, "Parallel forks").
 */
abstract class ShortChaosRun {

    private static final String WORKER_JAVA_OPTS = "-Xms64m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss512k";

    /**
     * The workers' session timeout and heartbeat interval: the defaults' proportions (ten heartbeats per session) at
     * half their scale. A member on a healthy worker must reach the successor of a crashed or frozen leader within
     * its lease ({@code session - 2 x heartbeat}, 4 s here), and the successor claims only after the leader's silence
     * bound (a third of that). With 3 s and 0.5 s (a 2 s lease, 750 ms of it the silence bound) the build beside the
     * integration tests and one busy core missed it in 4 of 5 runs: the claim, the replay and the member's retries
     * took longer than the 1.25 s left (docs/testing.md, "Parallel forks").
     */
    static final int SESSION_TIMEOUT_MS = 5_000;
    static final int HEARTBEAT_INTERVAL_MS = 500;

    @TempDir
    Path workDir;

    @RegisterExtension
    final FailedRunEvidence evidence = new FailedRunEvidence();

    /** The checker's report of the last run. */
    CheckReport lastReport;
    private String testName;
    /** Where this test's run is kept if it fails. */
    private Path kept;

    @BeforeEach
    void name(TestInfo info) {
        testName = info.getTestMethod().orElseThrow().getName();
    }

    /** Every run starts and restarts worker JVMs: they map the distribution's classes instead of loading them. */
    @BeforeAll
    static void archiveTheDistributionsClasses() throws Exception {
        DistributionArchive.ensure(ChaosRunner.findDistribution());
    }

    /** The kinds of the faults the last run injected, in order. */
    List<FaultKind> faultKinds() throws Exception {
        return HistoryFiles.read(workDir).faults().stream().map(FaultEvent::kind).toList();
    }

    /** A run of 45 s of faults. */
    ChaosRun run(long seed, Set<FaultKind> faults) throws Exception {
        return run(seed, 45_000, faults);
    }

    ChaosRun run(long seed, long durationMs, Set<FaultKind> faults) throws Exception {
        return run(seed, durationMs, faults, 0);
    }

    /**
     * Runs 3 workers over 32 shards at 150 records/s with {@code faults} drawn from {@code seed} for
     * {@code durationMs}, and {@code reshards} changes of the shard count (then over 1,000 keys); fails on any
     * violation the checker reports and when nothing was produced.
     */
    ChaosRun run(long seed, long durationMs, Set<FaultKind> faults, int reshards) throws Exception {
        ChaosSettings settings = new ChaosSettings(seed, durationMs, 3, 32, 150, faults, SESSION_TIMEOUT_MS,
                HEARTBEAT_INTERVAL_MS, 4, 10, 1,
                ChaosRunner.findDistribution(), workDir, WORKER_JAVA_OPTS, 0, 0, reshards == 0 ? 0 : 1_000, reshards);
        kept = evidence.track(workDir, testName, seed);
        ChaosRun run = new ChaosRun(settings, System.out);
        CheckReport report;
        try {
            report = run.run();
        } catch (Exception e) {
            throw new AssertionError("the chaos run failed before its check (" + e.getMessage() + "); " + where(), e);
        }
        lastReport = report;
        assertThat(report.violations()).as(report.render() + where()).isEmpty();
        assertThat(report.count("produced")).as("records produced; " + where()).isPositive();
        return run;
    }

    /** Fails when the run's fault injection stopped early. */
    void assertValid(ChaosRun run) {
        assertThat(run.aborted()).as("fault injection stopped early; " + where()).isEmpty();
    }

    /** Where the failed run's worker logs and report are kept. */
    String where() {
        return "worker logs, histories, Redis data and report.txt kept in " + kept;
    }
}
