package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.testkit.dist.DistributionArchive;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code bin/quickstart --once} from the packaged distribution, as a newcomer would: it starts its
 * own redis-server and two workers, produces records, and must exit 0 only after every record was
 * processed; afterwards no process it started (listed in its pid file) may still be alive.
 */
class QuickstartTest {

    private static final int RECORDS = 500;
    private static final long TIMEOUT_S = 150;

    @TempDir
    Path runDir;

    @Test
    void onceProcessesEveryRecordAndLeavesNoProcessBehind() throws Exception {
        Path dist = Path.of(System.getProperty("shardline.dist.dir"));
        DistributionArchive.ensure(dist); // a stale archive would add a JVM warning to the output
        Path output = runDir.resolve("quickstart.out");
        ProcessBuilder builder = new ProcessBuilder(dist.resolve("bin/quickstart").toString(), "--once",
                "--records", Integer.toString(RECORDS), "--run-dir", runDir.resolve("run").toString())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().remove("REDIS_URL");
        Process quickstart = builder.start();
        Path pids = runDir.resolve("run/pids");
        try {
            boolean exited = quickstart.waitFor(TIMEOUT_S, TimeUnit.SECONDS);
            assertThat(exited).as("quickstart finished within %d s; output:%n%s", TIMEOUT_S, read(output)).isTrue();
            assertThat(quickstart.exitValue()).as("exit code; output:%n%s", read(output)).isZero();
            assertThat(read(output)).contains("all " + RECORDS + " records processed");

            List<String> started = Files.readAllLines(pids, StandardCharsets.UTF_8);
            assertThat(started).extracting(line -> line.split(" ")[0])
                    .containsExactlyInAnyOrder("redis-server", "worker-1", "worker-2", "producer");
            for (String line : started) {
                long pid = Long.parseLong(line.split(" ")[1]);
                assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive))
                        .as("%s is gone after quickstart exited; output:%n%s", line, read(output))
                        .isNotEqualTo(Optional.of(true));
            }
        } finally {
            stopLeftovers(quickstart, pids);
        }
    }

    /** If the test failed half-way: stop quickstart and whatever it started, by pid. */
    private static void stopLeftovers(Process quickstart, Path pids) throws IOException {
        if (quickstart.isAlive()) {
            quickstart.destroyForcibly();
        }
        if (Files.exists(pids)) {
            for (String line : Files.readAllLines(pids, StandardCharsets.UTF_8)) {
                String[] parts = line.split(" ");
                if (parts.length == 2) {
                    ProcessHandle.of(Long.parseLong(parts[1])).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }
}
