package io.shardline.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The short chaos run: real worker processes from the packaged distribution, a real redis-server with AOF,
 * every kind of fault from a fixed seed; fails on any violation the checker finds. Needs
 * {@code dist/target/shardline-*} (the chaos module builds after {@code dist}). About 1 minute of faults plus
 * worker start-up, drain and check: 2-4 minutes; tagged {@code integration}.
 */
class ChaosRunIT {

    /** Fixed seed: pause a worker, kill Redis, kill a worker, kill the leader; replay with {@code bin/chaos --seed 13}. */
    static final long SEED = 13L;

    @TempDir
    Path workDir;

    @Test
    @Tag("integration")
    void aShortRunWithEveryFaultKindBreaksNoGuarantee() throws Exception {
        ChaosSettings settings = new ChaosSettings(SEED, 45_000, 3, 32, 150, EnumSet.allOf(FaultKind.class),
                3_000, 500, 4, 10, 1, ChaosRunner.findDistribution(), workDir,
                "-Xms64m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss512k");

        CheckReport report = new ChaosRun(settings, System.out).run();

        assertThat(report.violations()).as(report.render()).isEmpty();
        assertThat(report.count("produced")).isPositive();
    }
}
